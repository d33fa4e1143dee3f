// Schemas for people: the roles a grant carries, and how a person is shown.
import { GLOBAL_ROLES, UNIT_ROLES } from '../auth/capabilities.ts'
import { Instant, Line, Nullable, OneOf, OptionalNullable, t } from '../schemas.ts'

export const GlobalRoleSchema = Nullable(OneOf(GLOBAL_ROLES, { description: 'owner, admin, or null for none' }))
export const UnitRoleSchema = OneOf(UNIT_ROLES)

export const UnitGrantSchema = t.Object(
  {
    unit_id: t.Integer({ minimum: 1, description: 'The unit (1 is the pack, 2 the troop)' }),
    role: UnitRoleSchema,
    title: OptionalNullable(Line(100, { description: 'Shown to families, e.g. Cubmaster' })),
  },
  { $id: 'UnitGrant', additionalProperties: false },
)

/** A person's unit role, as answers show it. */
export const Membership = t.Object(
  { unit_id: t.Integer(), slug: t.String(), role: UnitRoleSchema, title: Nullable(t.String()) },
  { additionalProperties: false },
)

const PERSON_EXAMPLE = {
  id: 3,
  email: 'akela@example.org',
  name: 'Sam Rivera',
  global_role: null,
  units: [{ unit_id: 1, slug: 'pack', role: 'leader', title: 'Cubmaster' }],
}

/** Who someone is: what whoami and the people list show of a person. */
export const PersonSummary = t.Object(
  {
    id: t.Integer(),
    email: t.String(),
    name: Nullable(t.String()),
    global_role: Nullable(OneOf(GLOBAL_ROLES)),
    units: t.Array(Membership),
  },
  { $id: 'Person', additionalProperties: false, examples: [PERSON_EXAMPLE] },
)

/** A session as the people list and your own account show it; address and browser only to yourself and owners. */
export const SessionView = t.Object(
  {
    id: t.Integer(),
    created_at: Instant,
    last_seen_at: Instant,
    address: t.Optional(Nullable(t.String())),
    user_agent: t.Optional(Nullable(t.String())),
  },
  { $id: 'Session', additionalProperties: false },
)
