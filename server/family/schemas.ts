// The family view's shapes: a household as its own family sees it, what they may change of it, and the family page
// (households from the roster, events and replies from the calendar, the leaders to ask).
import { ScoutLog } from '../attendance/log-schemas.ts'
import { FamilyRsvpEvent } from '../calendar/rsvp-schemas.ts'
import { FAMILY_EXAMPLE, familyFields, householdFields, Phone, ProgramYear } from '../roster/schemas.ts'
import { Line, Nullable, OptionalNullable, t } from '../schemas.ts'

/** A household as its own family sees it: no leaders' notes. */
export const FamilyHouseholdView = t.Object(familyFields, {
  $id: 'FamilyHousehold',
  additionalProperties: false,
  examples: [FAMILY_EXAMPLE],
})

const FamilyScoutChange = t.Object(
  {
    id: t.Integer({ minimum: 1, description: 'A scout of this household' }),
    preferred_name: OptionalNullable(Line(100, { description: 'The name the scout goes by; null for their first name' })),
    photo_consent: t.Optional(t.Boolean({ description: 'The family agrees to the scout appearing in photos' })),
  },
  { additionalProperties: false },
)

/** What a family may change of its own household; leaders keep the rest (names, notes, units). */
export const FamilyHouseholdChange = t.Object(
  {
    email: householdFields.email,
    phone: householdFields.phone,
    second_parent: householdFields.second_parent,
    second_email: householdFields.second_email,
    emergency_contact: OptionalNullable(
      t.Object(
        { name: Line(100, { minLength: 1 }), phone: Phone },
        { additionalProperties: false, description: 'Whom to call when the parents cannot be reached; null for no one' },
      ),
    ),
    scouts: t.Optional(t.Array(FamilyScoutChange, { maxItems: 20, description: 'Changes to scouts of this household, by id' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        phone: '555-123-4567',
        emergency_contact: { name: 'Pat Hale', phone: '555-987-6543' },
        scouts: [{ id: 9, preferred_name: 'Jay', photo_consent: true }],
      },
    ],
  },
)

const UnitLeader = t.Object(
  {
    name: t.String({ description: 'Their name, or their email when they gave none' }),
    title: Nullable(t.String({ description: 'e.g. Cubmaster, Bear den leader' })),
    email: t.String(),
    unit: t.String({ description: "The unit's name" }),
  },
  { additionalProperties: false },
)

export const Family = t.Object(
  {
    year: ProgramYear,
    households: t.Array(FamilyHouseholdView, { description: 'Empty when your account is not linked to a household' }),
    events: t.Array(FamilyRsvpEvent, { description: 'Upcoming events asking families to reply, with your replies' }),
    leaders: t.Array(UnitLeader, { description: "The leaders of your scouts' units, whom to ask" }),
    logs: t.Array(ScoutLog, { description: 'Each of your scouts’ log: the events they came to and their totals' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        year: { year: 2026, label: '2026–27' },
        households: [FAMILY_EXAMPLE],
        events: FamilyRsvpEvent.examples,
        leaders: [{ name: 'Alex Akela', title: 'Cubmaster', email: 'akela@example.org', unit: 'Cub Scout Pack' }],
        logs: ScoutLog.examples,
      },
    ],
  },
)
