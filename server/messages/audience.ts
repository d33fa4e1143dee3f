// Who a message goes to: the audience as a leader picks it (units, dens or patrols, households, an event's families by
// their reply, the units' leaders), resolved to addresses — each active household's email and its linked accounts'
// emails, each address once — and to what was skipped and why. A leader reaches only the units they lead.
import type { Caller } from '../auth/credential.ts'
import { titleAndUnitOf } from '../calendar/event.ts'
import type { Executor } from '../db/database.ts'
import { UNIT_SLUGS } from '../units/tables.ts'
import { forbidden, unprocessable } from '../errors.ts'
import { ledUnits } from '../auth/led-units.ts'
import { Line, OneOf, t } from '../schemas.ts'
import type { SkipReason } from './tables.ts'

const REPLY_FILTERS = ['yes', 'maybe', 'no', 'none'] as const
const UnitSlug = OneOf(UNIT_SLUGS)

export const Audience = t.Object(
  {
    units: t.Optional(t.Array(UnitSlug, { uniqueItems: true, description: 'Every family of these units' })),
    dens: t.Optional(
      t.Array(t.Object({ unit: UnitSlug, name: Line(60, { minLength: 1, examples: ['Wolf'] }) }, { additionalProperties: false }), {
        maxItems: 50,
        description: 'The families of a den (pack) or patrol (troop), by its name within the unit',
      }),
    ),
    households: t.Optional(
      t.Array(t.Integer({ minimum: 1 }), { uniqueItems: true, maxItems: 500, description: 'These households, by id' }),
    ),
    event: t.Optional(
      t.Object(
        {
          uid: Line(300, { minLength: 1, description: 'A calendar event uid' }),
          replies: t.Optional(
            t.Array(OneOf(REPLY_FILTERS), {
              uniqueItems: true,
              minItems: 1,
              description: 'Only the families who answered so (`none`: who has not answered); all its families without it',
            }),
          ),
        },
        { additionalProperties: false, description: "The families of the event's units" },
      ),
    ),
    leaders: t.Optional(t.Array(UnitSlug, { uniqueItems: true, description: "These units' leaders (their account email)" })),
  },
  {
    additionalProperties: false,
    description: 'Who gets it: everyone any part names, each address once',
    examples: [{ dens: [{ unit: 'pack', name: 'Wolf' }], leaders: ['pack'] }],
  },
)
export type AudienceInput = typeof Audience.static

const outOfScope = (detail: string) => forbidden(detail, 'audience_out_of_scope')

export interface Recipient {
  email: string
  /** Why this address gets it, for the mail's footer. */
  because: 'family' | 'leader'
  /** A family address's household: its reply link when the message is about an event asking for replies. */
  household?: number
}
export interface Skip {
  email: string | null
  who: string
  reason: SkipReason
}
export interface Resolved {
  recipients: Recipient[]
  skipped: Skip[]
  /** The units it goes to (named, and those its families have scouts in): every leader of these sees the message. */
  unitIds: number[]
  /** The audience in words ("the pack; the Wolf den"), for the footer and the action log. */
  words: string
}

/**
 * Resolves an audience for a caller: 403 `audience_out_of_scope` when it names a unit, household or event the caller does not lead (a leader
 * sends only to their units; admins and owners to any), 422 when it names nothing or something that is not there.
 * Unsubscribed addresses are skipped unless the message is urgent.
 */
export async function resolveAudience(db: Executor, caller: Caller, audience: AudienceInput, urgent: boolean): Promise<Resolved> {
  const { units = [], dens = [], households = [], event, leaders = [] } = audience
  if (!units.length && !dens.length && !households.length && !event && !leaders.length)
    throw unprocessable('audience: choose who gets it (units, dens, households, an event or leaders)')
  const unitRows = await db.selectFrom('units').select(['id', 'slug', 'name']).execute()
  const unitId = (slug: string) => unitRows.find((u) => u.slug === slug)!.id
  const led = ledUnits(caller)
  const mayReach = (id: number) => !led || led.has(id)
  for (const slug of [...units, ...dens.map((d) => d.unit), ...leaders])
    if (!mayReach(unitId(slug))) throw outOfScope(`audience: you can only send to units you lead (not the ${slug})`)

  const words: string[] = []
  const householdIds = new Set<number>()
  const unitIds = new Set<number>([...units, ...dens.map((d) => d.unit), ...leaders].map(unitId))
  const activeWithScoutsIn = (ids: number[]) =>
    db
      .selectFrom('scouts')
      .innerJoin('households', 'households.id', 'scouts.household_id')
      .select('households.id')
      .distinct()
      .where('households.active', '=', 1)
      .where('scouts.unit_id', 'in', ids.length ? ids : [-1])

  if (units.length) {
    for (const row of await activeWithScoutsIn(units.map(unitId)).execute()) householdIds.add(row.id)
    words.push(...units.map((u) => `the ${u}`))
  }
  for (const den of dens) {
    const rows = await activeWithScoutsIn([unitId(den.unit)])
      .select('scouts.den')
      .where((eb) => eb(eb.fn('lower', ['scouts.den']), '=', den.name.toLowerCase()))
      .execute()
    if (!rows.length && !(await denExists(db, unitId(den.unit), den.name)))
      throw unprocessable(`audience.dens: no scout of the ${den.unit} is in "${den.name}"`)
    for (const row of rows) householdIds.add(row.id)
    words.push(`the ${den.name} ${den.unit === 'pack' ? 'den' : 'patrol'}`)
  }
  if (households.length) {
    const found = await db
      .selectFrom('households')
      .leftJoin('scouts', 'scouts.household_id', 'households.id')
      .select(['households.id', 'households.active', 'scouts.unit_id'])
      .where('households.id', 'in', households)
      .execute()
    for (const id of households) {
      const rows = found.filter((r) => r.id === id)
      if (!rows.length || !rows[0].active) throw unprocessable(`audience.households: no active household ${id}`)
      // Only a scout in a unit the leader leads makes a household theirs to mail: one with no scouts is nobody's
      // unit, so no other leader would see the message.
      if (led && !rows.some((r) => r.unit_id !== null && led.has(r.unit_id)))
        throw outOfScope(`audience.households: household ${id} has no scout in a unit you lead`)
      householdIds.add(id)
    }
    words.push(households.length === 1 ? 'one household' : `${households.length} households`)
  }
  if (event) {
    const object = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', event.uid).executeTakeFirst()
    const facts = object && titleAndUnitOf(object.ics)
    if (!facts) throw unprocessable(`audience.event: no event ${event.uid} in the calendar`)
    const eventUnits = (facts.unit === 'both' ? [...UNIT_SLUGS] : [facts.unit]).map(unitId).filter(mayReach)
    if (!eventUnits.length) throw outOfScope(`audience.event: "${facts.title}" is for a unit you do not lead`)
    let query = activeWithScoutsIn(eventUnits)
    if (event.replies) {
      const asking = await db.selectFrom('rsvp_events').select('asking').where('uid', '=', event.uid).executeTakeFirst()
      if (!asking?.asking) throw unprocessable(`audience.event.replies: "${facts.title}" does not ask for replies`)
      const answers = event.replies.filter((r) => r !== 'none')
      const none = event.replies.includes('none')
      query = query
        .leftJoin('rsvps', (join) => join.onRef('rsvps.household_id', '=', 'households.id').on('rsvps.uid', '=', event.uid))
        .where((eb) =>
          eb.or([...(answers.length ? [eb('rsvps.answer', 'in', answers)] : []), ...(none ? [eb('rsvps.answer', 'is', null)] : [])]),
        )
    }
    for (const row of await query.execute()) householdIds.add(row.id)
    for (const u of eventUnits) unitIds.add(u)
    words.push(
      event.replies
        ? `the families of "${facts.title}" who ${event.replies.map((r) => (r === 'none' ? 'have not answered' : `answered ${r}`)).join(' or ')}`
        : `the families of "${facts.title}"`,
    )
  }

  // Every leader of a unit a recipient family has a scout in sees the message, whichever part named the family.
  const scoutUnits = householdIds.size
    ? await db
        .selectFrom('scouts')
        .select('unit_id')
        .distinct()
        .where('household_id', 'in', [...householdIds])
        .execute()
    : []
  for (const { unit_id } of scoutUnits) unitIds.add(unit_id)

  const recipients = new Map<string, Recipient>()
  const skipped: Skip[] = []
  const families = await familyAddresses(db, [...householdIds])
  for (const family of families) {
    if (!family.emails.length) skipped.push({ email: null, who: `${family.parent_name}'s household`, reason: 'no address' })
    for (const email of family.emails) if (!recipients.has(email)) recipients.set(email, { email, because: 'family', household: family.id })
  }
  if (leaders.length) {
    const rows = await db
      .selectFrom('memberships')
      .innerJoin('people', 'people.id', 'memberships.person_id')
      .select('people.email')
      .where('memberships.role', '=', 'leader')
      .where('memberships.unit_id', 'in', leaders.map(unitId))
      .where('people.disabled_at', 'is', null)
      .execute()
    for (const { email } of rows) {
      const address = email.toLowerCase()
      if (!recipients.has(address)) recipients.set(address, { email: address, because: 'leader' })
    }
    words.push(...leaders.map((u) => `the ${u}'s leaders`))
  }
  if (!urgent) {
    const off = await unsubscribedOf(db, [...recipients.keys()])
    for (const email of off) {
      recipients.delete(email)
      skipped.push({ email, who: email, reason: 'unsubscribed' })
    }
  }
  return {
    recipients: [...recipients.values()].sort((a, b) => a.email.localeCompare(b.email)),
    skipped,
    unitIds: [...unitIds].sort((a, b) => a - b),
    words: words.join('; '),
  }
}

async function denExists(db: Executor, unitId: number, name: string) {
  return !!(await db
    .selectFrom('scouts')
    .select('id')
    .where('unit_id', '=', unitId)
    .where((eb) => eb(eb.fn('lower', ['den']), '=', name.toLowerCase()))
    .executeTakeFirst())
}

/** Each household's addresses: both parents' emails and its linked, enabled accounts' emails, lower-cased, each once. */
export async function familyAddresses(db: Executor, householdIds: number[]) {
  if (!householdIds.length) return []
  const [households, linked] = await Promise.all([
    db
      .selectFrom('households')
      .select(['id', 'parent_name', 'email', 'second_email'])
      .where('id', 'in', householdIds)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('household_people')
      .innerJoin('people', 'people.id', 'household_people.person_id')
      .select(['household_people.household_id', 'people.email'])
      .where('household_people.household_id', 'in', householdIds)
      .where('people.disabled_at', 'is', null)
      .execute(),
  ])
  return households.map((h) => ({
    id: h.id,
    parent_name: h.parent_name,
    emails: [
      ...new Set(
        [h.email, h.second_email, ...linked.filter((l) => l.household_id === h.id).map((l) => l.email)].flatMap((e) =>
          e?.trim() ? [e.trim().toLowerCase()] : [],
        ),
      ),
    ],
  }))
}

/** Which of these addresses asked for no more non-urgent mail. */
export async function unsubscribedOf(db: Executor, emails: string[]): Promise<string[]> {
  if (!emails.length) return []
  const rows = await db
    .selectFrom('mail_subscriptions')
    .select('email')
    .where('email', 'in', emails)
    .where('unsubscribed_at', 'is not', null)
    .execute()
  return rows.map((r) => r.email)
}
