// Roster schemas: household and scout fields as requests take them, and households as answers show them.
import { CHECK_ITEMS } from './tables.ts'
import { UNIT_SLUGS } from '../units/tables.ts'
import { UnitView } from '../units/units.ts'
import { NextCursor, PageQuery } from '../http/paging.ts'
import { DateString, Email, Instant, Line, Lines, Nullable, OneOf, OneShapeOf, OptionalNullable, t, withMessage } from '../schemas.ts'

export const Phone = withMessage(t.String({ pattern: '^[0-9+()\\-.\\s]{7,40}$', examples: ['555-123-4567'] }), 'must be a phone number')
const MemberId = withMessage(t.String({ pattern: '^[0-9]{6,12}$', examples: ['12345678'] }), 'must be 6 to 12 digits')
export const ParentName = Line(100, { minLength: 1 })
export const FirstName = Line(100, { minLength: 1 })
export const UnitId = t.Integer({ minimum: 1, description: 'The unit (1 is the pack, 2 the troop)' })
export const CheckItem = OneOf(CHECK_ITEMS, { description: 'dues or health_form' })

export const householdFields = {
  email: OptionalNullable(Email),
  phone: OptionalNullable(Phone),
  second_parent: OptionalNullable(Line(100)),
  second_email: OptionalNullable(Email),
  emergency_name: OptionalNullable(Line(100, { description: 'Whom to call when the parents cannot be reached' })),
  emergency_phone: OptionalNullable(Phone),
  notes: OptionalNullable(Lines(2000, { description: "Leaders' notes; families never see them" })),
  sort_name: OptionalNullable(
    Line(100, { description: "What the roster sorts the household by (e.g. de Vries); null sorts by the parent's last name" }),
  ),
}

export const NewHousehold = OneShapeOf(
  [
    t.Object(
      { parent_name: ParentName, ...householdFields },
      {
        additionalProperties: false,
        title: 'HouseholdFromFields',
        examples: [{ parent_name: 'Robin Hale', email: 'robin.hale@example.org', phone: '555-123-4567' }],
      },
    ),
    t.Object(
      {
        lead_id: t.Integer({
          minimum: 1,
          description: 'Copy the household from this join-form lead, and the scout it names with the grade as the den',
        }),
        unit: t.Optional(
          OneOf(UNIT_SLUGS, {
            description: 'The unit of the scout the lead names; needed when the family was not sure which unit',
          }),
        ),
      },
      { additionalProperties: false, title: 'HouseholdFromLead', examples: [{ lead_id: 31 }] },
    ),
  ],
  {
    description: 'parent_name with the other fields, or lead_id alone (with unit when the lead was not sure which)',
    examples: [{ parent_name: 'Robin Hale', email: 'robin.hale@example.org', phone: '555-123-4567' }],
  },
)

export const HouseholdChange = t.Object(
  {
    parent_name: t.Optional(ParentName),
    ...householdFields,
    active: t.Optional(t.Boolean({ description: 'false deactivates the household' })),
  },
  { additionalProperties: false, examples: [{ active: false }] },
)

const scoutFields = {
  last_name: OptionalNullable(Line(100)),
  den: OptionalNullable(Line(50, { description: 'Free text, e.g. Bear' })),
  org_member_id: OptionalNullable(MemberId),
}
export const NewScout = t.Object(
  { first_name: FirstName, unit_id: UnitId, ...scoutFields },
  { additionalProperties: false, examples: [{ first_name: 'Jamie', last_name: 'Hale', unit_id: 1, den: 'Tiger' }] },
)
export const ScoutChange = t.Object(
  { first_name: t.Optional(FirstName), unit_id: t.Optional(UnitId), ...scoutFields },
  { additionalProperties: false, examples: [{ den: 'Wolf' }] },
)

export const PersonIds = t.Object(
  { person_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: 20, uniqueItems: true, description: 'Every account to link' }) },
  { additionalProperties: false, examples: [{ person_ids: [14] }] },
)

const FormDate = {
  ...DateString,
  description: 'health_form only: the date written on the form (never its contents); it counts as current for 12 months from it',
}

export const CheckInput = t.Object(
  {
    done: t.Boolean(),
    note: OptionalNullable(Line(200, { description: 'For a health form, only that it was collected; nothing medical' })),
    form_date: OptionalNullable(FormDate),
  },
  {
    additionalProperties: false,
    examples: [
      { done: true, note: 'paid by check' },
      { done: true, form_date: '2026-09-12' },
    ],
  },
)

const checkFields = { done: t.Boolean(), note: Nullable(t.String()), recorded_by: Nullable(t.String()), recorded_at: Nullable(Instant) }
const Check = t.Object(checkFields, { $id: 'Check', additionalProperties: false })
const HealthFormCheck = t.Object(
  {
    ...checkFields,
    form_date: Nullable({ ...FormDate, description: 'The date on the newest form handed in, in any program year' }),
    expires_on: Nullable(t.String({ format: 'date', description: 'The last day that form counts (12 months from its date)' })),
    current: t.Boolean({ description: 'A dated form counts today; without a date, this year’s tick as before' }),
  },
  { $id: 'HealthFormCheck', additionalProperties: false },
)

export const ScoutRow = t.Object(
  {
    id: t.Integer(),
    household_id: t.Integer(),
    first_name: t.String(),
    last_name: Nullable(t.String()),
    unit_id: t.Integer(),
    den: Nullable(t.String()),
    org_member_id: Nullable(t.String()),
    preferred_name: Nullable(t.String({ description: 'The name the scout goes by, set by the family' })),
    photo_consent: t.Boolean({ description: 'The family agrees to the scout appearing in photos (set by the family)' }),
    created_at: Instant,
    updated_at: Instant,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 9,
        household_id: 5,
        first_name: 'Jamie',
        last_name: 'Hale',
        unit_id: 1,
        den: 'Tiger',
        org_member_id: null,
        preferred_name: null,
        photo_consent: false,
        created_at: '2026-11-23T08:10:00.000Z',
        updated_at: '2026-11-23T08:10:00.000Z',
      },
    ],
  },
)

const SCOUT_EXAMPLE = {
  ...ScoutRow.examples[0],
  unit_slug: 'pack',
  unit_name: 'Cub Scout Pack',
  checks: {
    dues: { done: true, note: null, recorded_by: 'akela@example.org', recorded_at: '2026-11-23T08:12:00.000Z' },
    health_form: {
      done: true,
      note: null,
      recorded_by: 'akela@example.org',
      recorded_at: '2026-11-23T08:12:00.000Z',
      form_date: '2026-09-12',
      expires_on: '2027-09-11',
      current: true,
    },
  },
}
/** A scout as the roster, a household and the scout's own path show it: with its unit and this year's checks. */
export const ScoutView = t.Object(
  {
    ...ScoutRow.properties,
    unit_slug: t.String(),
    unit_name: t.String(),
    checks: t.Object({ dues: Check, health_form: HealthFormCheck }, { additionalProperties: false }),
  },
  { $id: 'ScoutWithChecks', additionalProperties: false, examples: [SCOUT_EXAMPLE] },
)

export const FAMILY_EXAMPLE = {
  id: 5,
  parent_name: 'Robin Hale',
  email: 'robin.hale@example.org',
  phone: '555-123-4567',
  second_parent: null,
  second_email: null,
  emergency_name: 'Pat Hale',
  emergency_phone: '555-987-6543',
  payment_reference: '3FA9C21B',
  active: true,
  created_at: '2026-11-23T08:09:00.000Z',
  updated_at: '2026-11-23T08:09:00.000Z',
  people: [{ id: 14, email: 'robin.hale@example.org', name: 'Robin Hale' }],
  scouts: [SCOUT_EXAMPLE],
}

/** A household's fields a family sees too (the leaders' view adds notes, the lead and the sort name). */
export const familyFields = {
  id: t.Integer(),
  parent_name: t.String(),
  email: Nullable(t.String()),
  phone: Nullable(t.String()),
  second_parent: Nullable(t.String()),
  second_email: Nullable(t.String({ description: "The second parent's email: mailed like email" })),
  emergency_name: Nullable(t.String({ description: 'Whom to call when the parents cannot be reached' })),
  emergency_phone: Nullable(t.String()),
  payment_reference: t.String({ description: "The household's code for online payments: it names whom a payment is from" }),
  active: t.Boolean(),
  created_at: Instant,
  updated_at: Instant,
  people: t.Array(t.Object({ id: t.Integer(), email: t.String(), name: Nullable(t.String()) }, { additionalProperties: false }), {
    description: 'Accounts linked to the household',
  }),
  scouts: t.Array(ScoutView),
}

export const HouseholdView = t.Object(
  {
    ...familyFields,
    notes: Nullable(t.String()),
    lead_id: Nullable(t.Integer({ description: 'The join-form lead it was copied from' })),
    sort_name: Nullable(t.String({ description: "What the roster sorts by; null sorts by the parent's last name" })),
  },
  {
    $id: 'Household',
    additionalProperties: false,
    examples: [{ ...FAMILY_EXAMPLE, notes: 'Prefers texts', lead_id: 31, sort_name: null }],
  },
)

export const ProgramYear = t.Object(
  { year: t.Integer({ description: 'The calendar year the program year starts in' }), label: t.String() },
  { additionalProperties: false, examples: [{ year: 2026, label: '2026–27' }] },
)

const rosterFilters = {
  unit: t.Optional(Line(50, { description: 'Narrow to one unit: its slug or id', examples: ['pack'] })),
  q: t.Optional(
    Line(100, {
      description:
        "Households whose parent, second parent, either parent's email, phone (by its digits) or any scout's first, last or preferred name holds every word; case and accents aside",
      examples: ['hale'],
    }),
  ),
  den: t.Optional(Line(50, { description: 'Scouts in this den or patrol (its exact name)', examples: ['Wolf'] })),
  dues: t.Optional(OneOf(['unpaid'] as const, { description: 'unpaid: scouts whose dues for this program year are not done' })),
  health: t.Optional(
    OneOf(['missing'] as const, {
      description: 'missing: scouts whose health form is missing or expiring (not current today, or running out within 30 days)',
    }),
  ),
  inactive_weeks: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 104,
      description:
        'Scouts of active households who came to no event (attendance ticked present) dated in the last this many weeks, today included',
      examples: [6],
    }),
  ),
}

/** The roster's filters, as the CSV export takes them. */
export const RosterFilterQuery = t.Object(rosterFilters)
/** The filters and, for one page, limit and cursor: without either the roster answers every household, as the roster page needs. */
export const RosterQuery = t.Object({ ...rosterFilters, ...PageQuery })

const OpenInvite = t.Object(
  {
    id: t.Integer(),
    email: t.String(),
    invited_by: t.String(),
    created_at: Instant,
    expires_at: Instant,
  },
  { additionalProperties: false },
)

const ROSTER_HOUSEHOLD_EXAMPLE = {
  ...FAMILY_EXAMPLE,
  notes: 'Prefers texts',
  lead_id: 31,
  sort_name: null,
  invites: [
    {
      id: 8,
      email: 'pat.hale@example.org',
      invited_by: 'akela@example.org',
      created_at: '2026-11-23T08:00:00.000Z',
      expires_at: '2026-12-07T08:00:00.000Z',
    },
  ],
}

/** A household as the roster lists it, and as it answers alone: with the open invites that link their account to it. */
export const RosterHousehold = t.Object(
  {
    ...HouseholdView.properties,
    invites: t.Array(OpenInvite, { description: 'Open invites that link the account to this household when accepted' }),
  },
  { $id: 'RosterHousehold', additionalProperties: false, examples: [ROSTER_HOUSEHOLD_EXAMPLE] },
)

export const Roster = t.Object(
  {
    unit: Nullable(UnitView),
    units: t.Array(t.Object({ id: t.Integer(), slug: t.String(), name: t.String() }, { additionalProperties: false })),
    year: ProgramYear,
    households: t.Array(RosterHousehold, {
      description:
        "Active first, then by sort name (the household's sort_name, else the parent's last name), then parent name, then id. With unit, den, dues or health, only households with a scout that matches, each listing only its scouts that match. Every one without `limit` or `cursor`; one page with them",
    }),
    counts: t.Object(
      {
        households: t.Integer({ description: 'Households the filters found (on every page, not only this one)' }),
        scouts: t.Integer({ description: 'Scouts the filters found (on every page)' }),
        dues_unpaid: t.Integer({ description: 'Of those, scouts of active households whose dues for this program year are not done' }),
        health_missing: t.Integer({ description: 'Of those, scouts of active households whose health form is missing or expiring' }),
      },
      { additionalProperties: false, description: 'What the filters found, whatever the page' },
    ),
    next_cursor: NextCursor,
    dens: t.Array(t.String(), { description: 'Dens and patrols in use (in the unit, with unit), to suggest' }),
    den_units: t.Array(
      t.Object(
        {
          den: t.String(),
          unit_id: t.Integer(),
          unit_slug: t.String({ description: 'pack: a den; troop: a patrol' }),
          scouts: t.Integer({ description: 'Scouts in it, in every household' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every den and patrol in use with its unit, whatever the filters, by unit then name' },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        unit: null,
        units: [
          { id: 1, slug: 'pack', name: 'Cub Scout Pack' },
          { id: 2, slug: 'troop', name: 'Scouts BSA Troop' },
        ],
        year: { year: 2026, label: '2026–27' },
        households: [ROSTER_HOUSEHOLD_EXAMPLE],
        counts: { households: 1, scouts: 1, dues_unpaid: 0, health_missing: 0 },
        next_cursor: null,
        dens: ['Tiger', 'Wolf'],
        den_units: [
          { den: 'Tiger', unit_id: 1, unit_slug: 'pack', scouts: 1 },
          { den: 'Wolf', unit_id: 1, unit_slug: 'pack', scouts: 3 },
          { den: 'Eagle Patrol', unit_id: 2, unit_slug: 'troop', scouts: 4 },
        ],
      },
    ],
  },
)

export const CheckRecorded = t.Object(
  {
    scout_id: t.Integer(),
    item: CheckItem,
    year: t.Integer(),
    done: t.Boolean(),
    note: Nullable(t.String()),
    form_date: Nullable({ ...FormDate, description: 'The date on the health form; null for dues' }),
    recorded_by: t.String(),
    recorded_at: Instant,
  },
  {
    additionalProperties: false,
    examples: [
      {
        scout_id: 9,
        item: 'dues',
        year: 2026,
        done: true,
        note: null,
        form_date: null,
        recorded_by: 'akela@example.org',
        recorded_at: '2026-11-23T08:12:00.000Z',
      },
    ],
  },
)
