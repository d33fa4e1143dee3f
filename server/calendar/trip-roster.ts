// The trip roster of an event with sign-ups, for the leader who takes the scouts: who is coming (scouts named, adults
// counted), how to reach each household and whom to call in an emergency, whether each scout's health form is current
// on the day, whether the permission slip is signed, what is still owed, and who takes which slot — with what is still
// missing before the trip said first, in one line.
import { csvDocument, eventFileName } from '../csv.ts'
import { getSetting } from '../settings/registry.ts'
import { firstOccurrence } from './event.ts'
import type { Caller } from '../auth/credential.ts'
import { assertLeadsSlug } from '../auth/led-units.ts'
import type { Executor } from '../db/database.ts'
import { healthForms, programYear } from '../roster/queries.ts'
import { Nullable, t } from '../schemas.ts'
import { dollars, listWords, plural, scoutName } from '../words.ts'
import { factsOf, replies, rsvpEvent, standing } from './rsvp.ts'
import { RsvpView } from './rsvp-schemas.ts'
import { money, Money } from './signup.ts'

const HealthForm = t.Object(
  {
    form_date: Nullable(t.String({ format: 'date' })),
    expires_on: Nullable(t.String({ format: 'date' })),
    current: t.Boolean({ description: 'Current on the last day of the event' }),
  },
  { additionalProperties: false },
)

const TripHousehold = t.Object(
  {
    ...RsvpView.properties,
    phone: Nullable(t.String()),
    email: Nullable(t.String()),
    second_parent: Nullable(t.String()),
    emergency_name: Nullable(t.String()),
    emergency_phone: Nullable(t.String()),
  },
  { additionalProperties: false },
)

const TripScout = t.Object(
  {
    id: t.Integer(),
    household_id: t.Integer(),
    first_name: t.String(),
    preferred_name: Nullable(t.String({ description: 'The name the scout goes by, set by the family' })),
    last_name: Nullable(t.String()),
    unit_name: t.String(),
    den: Nullable(t.String()),
    photo_consent: t.Boolean({ description: 'The family agrees to the scout appearing in photos' }),
    health_form: HealthForm,
  },
  { additionalProperties: false },
)

export const TripRoster = t.Object(
  {
    uid: t.String(),
    title: t.String(),
    date: t.String({ format: 'date' }),
    end_date: Nullable(t.String({ format: 'date', description: 'The last day of an event over several days; null for one day' })),
    time: Nullable(t.String()),
    location: Nullable(t.String()),
    missing: t.Array(t.String(), { description: 'What is still missing before the trip, each in a few words; empty when nothing is' }),
    summary: t.String({ description: 'The missing parts as one sentence, or that nothing is missing' }),
    coming: t.Object(
      { households: t.Integer(), adults: t.Integer(), scouts: t.Integer() },
      { additionalProperties: false, description: 'Confirmed yes replies' },
    ),
    named: t.Boolean({ description: 'The event asks which scouts come (signup.per_scout); otherwise scouts are counted only' }),
    permission_slip: t.Boolean({ description: 'The event has a permission slip (signup.permission_text) for a yes to sign' }),
    scouts: t.Array(TripScout, { description: 'The scouts named by confirmed replies, by first name' }),
    households: t.Array(TripHousehold, { description: 'Confirmed yes replies, then maybes and the waitlist, by parent name' }),
    slots: t.Array(
      t.Object(
        {
          name: t.String(),
          needed: t.Integer(),
          filled: t.Integer(),
          volunteers: t.Array(t.Object({ household: t.String(), count: t.Integer() }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    money: t.Optional(Money),
  },
  {
    $id: 'TripRoster',
    additionalProperties: false,
    examples: [
      {
        uid: '9b2c1e4a@scouting-units-site',
        title: 'Winter campout',
        date: '2027-01-15',
        end_date: '2027-01-17',
        time: '17:00',
        location: 'Camp Oak',
        missing: ['1 permission slip unsigned', '1 health form not current', '$35.00 unpaid by 1 household'],
        summary: 'Missing before the trip: 1 permission slip unsigned, 1 health form not current and $35.00 unpaid by 1 household.',
        coming: { households: 1, adults: 1, scouts: 2 },
        named: true,
        permission_slip: true,
        scouts: [
          {
            id: 31,
            household_id: 12,
            first_name: 'Alex',
            preferred_name: 'Lex',
            last_name: 'Rivera',
            unit_name: 'Scouts BSA Troop',
            den: null,
            photo_consent: false,
            health_form: { form_date: '2026-09-12', expires_on: '2027-09-11', current: true },
          },
        ],
        households: [
          {
            ...RsvpView.examples[0],
            phone: '555-123-4567',
            email: 'dana@example.org',
            second_parent: null,
            emergency_name: 'Pat Rivera',
            emergency_phone: '555-987-6543',
          },
        ],
        slots: [{ name: 'Driver (4 seats)', needed: 2, filled: 1, volunteers: [{ household: 'Dana Rivera', count: 1 }] }],
        money: { owed_cents: 7000, paid_cents: 3500, balance_cents: 3500 },
      },
    ],
  },
)

const isComing = (r: { answer: string; status: string }) => r.answer === 'yes' && r.status === 'confirmed'
/** Confirmed first, then maybes, then the waitlist. */
const rank = (r: { answer: string; status: string }) => (isComing(r) ? 0 : r.answer === 'maybe' ? 1 : 2)
const total = <T>(rows: T[], of: (row: T) => number) => rows.reduce((n, row) => n + of(row), 0)

/** The event's last day as the calendar holds it (its first day when it is gone or lasts one day). */
async function lastDayOf(db: Executor, event: { uid: string; date: string }) {
  const object = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', event.uid).executeTakeFirst()
  const first = object && firstOccurrence(object.ics, await getSetting(db, 'site.timezone'))
  return first?.end && first.end > event.date ? first.end : event.date
}

/** GET /api/admin/calendar/{uid}/roster: the event's trip roster; 404 when it never asked for replies. */
export async function tripRoster(db: Executor, caller: Caller, uid: string) {
  const event = await rsvpEvent(db, uid, true)
  assertLeadsSlug(caller, event.unit, `"${event.title}"`)
  const facts = factsOf(event)
  const all = await replies(db, event)
  const answered = all.filter((r) => r.answer !== 'no').sort((a, b) => rank(a) - rank(b))

  const contacts = answered.length
    ? await db
        .selectFrom('households')
        .select(['id', 'phone', 'email', 'second_parent', 'emergency_name', 'emergency_phone'])
        .where(
          'id',
          'in',
          answered.map((r) => r.household_id),
        )
        .execute()
    : []
  const households = answered.map((r) => {
    const { id, ...contact } = contacts.find((c) => c.id === r.household_id)!
    return { ...r, ...contact }
  })
  const coming = households.filter(isComing)

  const named = coming.flatMap((r) => (r.scout_ids ?? []).filter((id) => !r.waitlisted_scout_ids?.includes(id)))
  const scoutRows = named.length
    ? await db
        .selectFrom('scouts')
        .innerJoin('units', 'units.id', 'scouts.unit_id')
        .select([
          'scouts.id',
          'scouts.household_id',
          'first_name',
          'preferred_name',
          'last_name',
          'units.name as unit_name',
          'den',
          'photo_consent',
        ])
        .where('scouts.id', 'in', named)
        .orderBy('first_name')
        .execute()
    : []
  // A form must hold to the trip's last day: one lapsing mid-campout leaves the scout uncovered.
  const lastDay = await lastDayOf(db, event)
  const forms = await healthForms(
    db,
    scoutRows.map((s) => s.id),
    lastDay,
    (await programYear(db)).year,
  )
  const scouts = scoutRows.map((s) => ({ ...s, photo_consent: s.photo_consent === 1, health_form: forms.get(s.id)! }))

  const slots = (await standing(db, event)).slots.map((s) => ({
    ...s,
    volunteers: all
      .filter((r) => r.status !== 'waitlisted')
      .flatMap((r) => r.slots.filter((v) => v.name === s.name).map(({ count }) => ({ household: r.household, count }))),
  }))

  const signup = facts.signup
  const owing = coming.filter((r) => (r.balance_cents ?? 0) > 0)
  const unsigned = signup?.permission_text ? coming.filter((r) => !r.permission?.current).length : 0
  const lapsed = scouts.filter((s) => !s.health_form.current).length
  const unreachable = coming.filter((h) => !h.emergency_phone).length
  const missing = [
    unsigned && `${plural(unsigned, 'permission slip')} unsigned`,
    lapsed && `${plural(lapsed, 'health form')} not current`,
    owing.length && `${dollars(total(owing, (r) => r.balance_cents!))} unpaid by ${plural(owing.length, 'household')}`,
    ...slots.filter((s) => s.filled < s.needed).map((s) => `${s.name}: ${s.needed - s.filled} more needed`),
    unreachable && `${plural(unreachable, 'household')} without an emergency contact`,
  ].filter((m): m is string => !!m)

  return {
    uid: facts.uid,
    title: facts.title,
    date: facts.date,
    end_date: lastDay > facts.date ? lastDay : null,
    time: facts.time,
    location: facts.location,
    missing,
    summary: missing.length ? `Missing before the trip: ${listWords(missing)}.` : 'Nothing is missing before the trip.',
    coming: {
      households: coming.length,
      adults: total(coming, (r) => r.adults),
      scouts: total(coming, (r) => r.scouts - r.waitlisted_scouts),
    },
    named: !!signup?.per_scout,
    permission_slip: !!signup?.permission_text,
    scouts,
    households,
    slots,
    ...(signup?.cost_cents !== undefined
      ? {
          money: money(
            total(all, (r) => r.owed_cents ?? 0),
            total(all, (r) => r.paid_cents ?? 0),
          ),
        }
      : {}),
  }
}

/** The trip roster as CSV: one line per scout named (per household when scouts are only counted). */
export async function tripRosterCsv(db: Executor, caller: Caller, uid: string) {
  const roster = await tripRoster(db, caller, uid)
  const header = [
    'scout',
    'unit',
    'den',
    'health_form_until',
    'health_form_current',
    'photos_ok',
    'household',
    'answer',
    'scouts',
    'adults',
  ]
  const more = ['phone', 'email', 'emergency_contact', 'emergency_phone', 'permission_signed', 'balance', 'slots']
  const rows = roster.households.flatMap((h) => {
    const about = [
      h.phone,
      h.email,
      h.emergency_name,
      h.emergency_phone,
      h.permission ? (h.permission.current ? 'yes' : 'older slip') : 'no',
      h.balance_cents === undefined ? null : dollars(h.balance_cents),
      h.slots.map((s) => `${s.name} × ${s.count}`).join('; ') || null,
    ]
    const answer = h.status === 'waitlisted' ? 'waitlisted' : h.waitlisted_scouts ? `yes (${h.waitlisted_scouts} waitlisted)` : h.answer
    const reply = [h.household, answer, String(h.scouts), String(h.adults)]
    const own = roster.scouts.filter((s) => s.household_id === h.household_id)
    if (!own.length) return [[null, null, null, null, null, null, ...reply, ...about]]
    return own.map((s) => [
      scoutName(s),
      s.unit_name,
      s.den,
      s.health_form.expires_on,
      s.health_form.current ? 'yes' : 'no',
      s.photo_consent ? 'yes' : 'no',
      ...reply,
      ...about,
    ])
  })
  return { filename: eventFileName('trip-roster', roster.date, roster.title), csv: csvDocument([...header, ...more], rows) }
}
