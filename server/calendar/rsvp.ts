// Replies to events that ask for them (RSVPs): a family answers yes, maybe or no with how many adults and
// scouts come, and may change it until the event starts; leaders see headcounts, the list and a CSV. Replies
// are kept here by event uid; an event deleted from the store keeps its replies readable for 30 days.
import type { Caller } from '../auth/credential.ts'
import { csvDocument } from '../csv.ts'
import type { Db } from '../db/client.ts'
import type { Selectable } from 'kysely'
import { type Executor, RSVP_ANSWERS, type RsvpAnswer, type RsvpEventTable } from '../db/database.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden, notFound, unprocessable } from '../errors.ts'
import { Instant, Line, Nullable, nowIso, OneOf, t } from '../schemas.ts'
import { clockWords, dayWords } from '../words.ts'
import { type CalendarEvent, occurrences, toICalendar } from './event.ts'

/** Days the replies of an event deleted from the store stay readable. */
export const RSVP_KEEP_DAYS = 30

export const RsvpBody = t.Object(
  {
    answer: OneOf(RSVP_ANSWERS, { description: 'Coming, perhaps, or not' }),
    adults: t.Integer({ minimum: 0, maximum: 20, description: 'How many adults come' }),
    scouts: t.Integer({ minimum: 0, maximum: 20, description: 'How many scouts (and siblings) come' }),
    note: t.Optional(Line(300, { description: 'For the leaders: a late arrival, a food allergy to plan for' })),
    household_id: t.Optional(
      t.Integer({ minimum: 1, description: 'Which of your households answers; needed when you have more than one' }),
    ),
  },
  { additionalProperties: false, examples: [{ answer: 'yes', adults: 1, scouts: 2, note: 'We arrive at 10:30' }] },
)

const Headcount = t.Object(
  { households: t.Integer(), adults: t.Integer(), scouts: t.Integer() },
  { additionalProperties: false, description: 'How many households gave this answer, with the adults and scouts they named' },
)

export const RsvpTotals = t.Object(
  { yes: Headcount, maybe: Headcount, no: Headcount },
  {
    $id: 'RsvpTotals',
    additionalProperties: false,
    examples: [
      {
        yes: { households: 9, adults: 11, scouts: 14 },
        maybe: { households: 2, adults: 2, scouts: 3 },
        no: { households: 1, adults: 0, scouts: 0 },
      },
    ],
  },
)

const REPLY_EXAMPLE = {
  household_id: 12,
  household: 'Dana Rivera',
  answer: 'yes' as const,
  adults: 1,
  scouts: 2,
  note: 'We arrive at 10:30',
  answered_by: 'dana@example.org',
  answered_at: '2026-11-20T19:04:05.000Z',
}

export const RsvpView = t.Object(
  {
    household_id: t.Integer(),
    household: t.String({ description: "The household's parent name" }),
    answer: OneOf(RSVP_ANSWERS),
    adults: t.Integer(),
    scouts: t.Integer(),
    note: Nullable(t.String()),
    answered_by: t.String({ description: 'Who answered last' }),
    answered_at: Instant,
  },
  { $id: 'Rsvp', additionalProperties: false, examples: [REPLY_EXAMPLE] },
)

const eventFacts = {
  uid: t.String(),
  title: t.String(),
  date: t.String({ format: 'date' }),
  time: Nullable(t.String({ description: 'Start time; null for an all-day event' })),
  location: Nullable(t.String()),
  asking: t.Boolean({ description: 'The event asks for replies (a leader may stop asking; the replies stay)' }),
  open: t.Boolean({ description: 'Replies can be given or changed now: asking, not started, still in the calendar' }),
  gone_at: Nullable({ ...Instant, description: 'When the event was deleted from the calendar; its replies are kept 30 days' }),
}
const EVENT_EXAMPLE = {
  uid: '9b2c1e4a@scouting-units-site',
  title: 'Pinewood derby',
  date: '2026-12-05',
  time: '10:00',
  location: 'School gym',
  asking: true,
  open: true,
  gone_at: null,
}

export const RsvpList = t.Object(
  {
    ...eventFacts,
    totals: t.Optional(RsvpTotals),
    replies: t.Array(RsvpView, { description: "Every household's reply for leaders; your own households' otherwise" }),
  },
  { additionalProperties: false, examples: [{ ...EVENT_EXAMPLE, totals: RsvpTotals.examples[0], replies: [REPLY_EXAMPLE] }] },
)

export const FamilyRsvpEvent = t.Object(
  { ...eventFacts, replies: t.Array(RsvpView, { description: "Your households' replies" }) },
  { $id: 'FamilyRsvpEvent', additionalProperties: false, examples: [{ ...EVENT_EXAMPLE, replies: [REPLY_EXAMPLE] }] },
)

type RsvpEventRow = Selectable<RsvpEventTable>

export const DeletedWithReplies = t.Object(
  { uid: t.String(), title: t.String(), date: t.String({ format: 'date' }), gone_at: Instant, totals: RsvpTotals },
  { additionalProperties: false },
)

/** Events that asked for replies and are gone from the store, newest first: their replies are kept 30 days. */
export async function deletedWithReplies(db: Executor) {
  const gone = await db
    .selectFrom('rsvp_events')
    .select(['uid', 'title', 'date', 'gone_at'])
    .where('gone_at', 'is not', null)
    .orderBy('gone_at', 'desc')
    .execute()
  const totals = gone.length ? await totalsByUid(db) : new Map()
  return gone.map((e) => ({ ...e, gone_at: e.gone_at!, totals: totals.get(e.uid)!.totals }))
}

const factsOf = (e: RsvpEventRow, now = Date.now()) => ({
  uid: e.uid,
  title: e.title,
  date: e.date,
  time: e.time,
  location: e.location,
  asking: e.asking === 1,
  open: e.asking === 1 && !e.gone_at && Date.parse(e.starts_at) > now,
  gone_at: e.gone_at,
})

/** Where an event stands for replies: what it is, and when replies close (its start). */
function whenOf(uid: string, event: CalendarEvent, timeZone: string) {
  const [first] = occurrences(toICalendar(uid, event, timeZone), -8.64e15, 8.64e15, timeZone)
  return factsFrom(first)
}

const factsFrom = (o: { title: string; date: string; time?: string; location?: string; start: number }) => ({
  title: o.title,
  date: o.date,
  time: o.time ?? null,
  location: o.location ?? null,
  starts_at: new Date(o.start).toISOString(),
})

/** On create and replace: an event asking for replies is remembered (again); one that stops asking keeps its replies. */
export async function setAsking(trx: Executor, actor: string, uid: string, event: CalendarEvent, asking: boolean, timeZone: string) {
  const facts = whenOf(uid, event, timeZone)
  const known = await trx.selectFrom('rsvp_events').select('uid').where('uid', '=', uid).executeTakeFirst()
  if (known)
    await trx
      .updateTable('rsvp_events')
      .set({ ...facts, asking: asking ? 1 : 0, gone_at: null })
      .where('uid', '=', uid)
      .execute()
  else if (asking)
    await trx
      .insertInto('rsvp_events')
      .values({ uid, ...facts, asking: 1, asked_by: actor, asked_at: nowIso() })
      .execute()
}

/**
 * After each read of the store (inside the copy's transaction): events asking for replies take their title and
 * start from the store, one the store no longer holds is marked gone, and replies gone 30 days are dropped.
 */
export async function followStore(trx: Executor, objects: { uid: string; ics: string }[], timeZone: string) {
  const now = nowIso()
  const byUid = new Map(objects.map((o) => [o.uid, o.ics]))
  for (const row of await trx.selectFrom('rsvp_events').select(['uid', 'gone_at']).execute()) {
    const ics = byUid.get(row.uid)
    const first = ics ? safeOccurrences(ics, timeZone)[0] : undefined
    if (first)
      await trx
        .updateTable('rsvp_events')
        .set({ ...factsFrom(first), gone_at: null })
        .where('uid', '=', row.uid)
        .execute()
    else if (!row.gone_at) await trx.updateTable('rsvp_events').set({ gone_at: now }).where('uid', '=', row.uid).execute()
  }
  const expired = new Date(Date.now() - RSVP_KEEP_DAYS * 86_400_000).toISOString()
  const dropped = await trx.deleteFrom('rsvp_events').where('gone_at', '<', expired).returning('title').execute()
  if (dropped.length)
    await record(
      trx,
      'system',
      'calendar.rsvp_drop',
      `Replies to ${dropped.map((d) => `“${d.title}”`).join(', ')} dropped ${RSVP_KEEP_DAYS} days after the event was deleted`,
    )
}

function safeOccurrences(ics: string, timeZone: string) {
  try {
    return occurrences(ics, -8.64e15, 8.64e15, timeZone)
  } catch {
    return []
  }
}

const emptyTotals = () =>
  Object.fromEntries(RSVP_ANSWERS.map((a) => [a, { households: 0, adults: 0, scouts: 0 }])) as Record<
    RsvpAnswer,
    { households: number; adults: number; scouts: number }
  >

/** Headcounts per event uid, for the events that ever asked for replies. */
export async function totalsByUid(db: Executor) {
  const rows = await db
    .selectFrom('rsvp_events')
    .leftJoin('rsvps', 'rsvps.uid', 'rsvp_events.uid')
    .select((eb) => [
      'rsvp_events.uid',
      'rsvp_events.asking',
      'rsvps.answer',
      eb.fn.count<number>('rsvps.household_id').as('households'),
      eb.fn.coalesce(eb.fn.sum<number>('rsvps.adults'), eb.lit(0)).as('adults'),
      eb.fn.coalesce(eb.fn.sum<number>('rsvps.scouts'), eb.lit(0)).as('scouts'),
    ])
    .groupBy(['rsvp_events.uid', 'rsvps.answer'])
    .execute()
  const out = new Map<string, { asking: boolean; totals: ReturnType<typeof emptyTotals> }>()
  for (const r of rows) {
    const entry = out.get(r.uid) ?? { asking: r.asking === 1, totals: emptyTotals() }
    if (r.answer) entry.totals[r.answer] = { households: Number(r.households), adults: Number(r.adults), scouts: Number(r.scouts) }
    out.set(r.uid, entry)
  }
  return out
}

function repliesQuery(db: Executor, uid: string) {
  return db
    .selectFrom('rsvps')
    .innerJoin('households', 'households.id', 'rsvps.household_id')
    .select([
      'rsvps.household_id',
      'households.parent_name as household',
      'answer',
      'adults',
      'scouts',
      'note',
      'answered_by',
      'answered_at',
    ])
    .where('rsvps.uid', '=', uid)
    .orderBy('households.parent_name')
}

async function rsvpEvent(db: Executor, uid: string, leader: boolean) {
  const event = await db.selectFrom('rsvp_events').selectAll().where('uid', '=', uid).executeTakeFirst()
  // A family sees only events that ask now; a leader also the replies of ones that stopped or were deleted.
  if (!event || (!leader && (event.asking !== 1 || event.gone_at))) throw notFound('This event does not ask for replies')
  return event
}

/** GET: every reply with headcounts for a leader (calendar:write); the caller's own households' otherwise. */
export async function repliesFor(db: Executor, caller: Caller, uid: string) {
  const leader = caller.capabilities.has('calendar:write')
  const event = await rsvpEvent(db, uid, leader)
  if (leader) return { ...factsOf(event), totals: (await totalsByUid(db)).get(uid)!.totals, replies: await repliesQuery(db, uid).execute() }
  const own = await ownHouseholdIds(db, caller)
  return { ...factsOf(event), replies: own.length ? await repliesQuery(db, uid).where('rsvps.household_id', 'in', own).execute() : [] }
}

/** PUT: the caller's household answers, or changes its answer, until the event starts. */
export async function answerFor(db: Db, caller: Caller, uid: string, body: typeof RsvpBody.static) {
  const event = await rsvpEvent(db, uid, false)
  const facts = factsOf(event)
  if (!facts.open) throw conflict('Replies are closed: the event has started')
  const own = await ownHouseholdIds(db, caller)
  if (!own.length) throw forbidden('Your account is not linked to a household; ask a leader to link it on the roster')
  const household = body.household_id ?? (own.length === 1 ? own[0] : null)
  if (household === null) throw unprocessable('household_id: your account has several households; say which one answers')
  if (!own.includes(household)) throw forbidden('You can answer only for your own household')
  const reply = {
    answer: body.answer,
    adults: body.adults,
    scouts: body.scouts,
    note: body.note?.trim() || null,
    answered_by: caller.actor,
    answered_at: nowIso(),
  }
  await write(db, async (trx) => {
    await trx
      .insertInto('rsvps')
      .values({ uid, household_id: household, ...reply })
      .onConflict((oc) => oc.columns(['uid', 'household_id']).doUpdateSet(reply))
      .execute()
    const name = (await trx.selectFrom('households').select('parent_name').where('id', '=', household).executeTakeFirstOrThrow())
      .parent_name
    await record(trx, caller.actor, 'calendar.rsvp', `${name}: ${replyWords(reply)} for ${eventWords(event)}`)
  })
  return await repliesQuery(db, uid).where('rsvps.household_id', '=', household).executeTakeFirstOrThrow()
}

const ANSWER_WORDS: Record<RsvpAnswer, string> = { yes: 'coming', maybe: 'maybe', no: 'not coming' }
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
const replyWords = (r: { answer: RsvpAnswer; adults: number; scouts: number }) =>
  r.answer === 'no' ? ANSWER_WORDS.no : `${ANSWER_WORDS[r.answer]}, ${plural(r.adults, 'adult')} and ${plural(r.scouts, 'scout')}`
const eventWords = (e: { title: string; date: string; time: string | null }) =>
  `“${e.title}”, ${dayWords(e.date)}${e.time ? `, ${clockWords(e.time)}` : ''}`

/** The replies as CSV for a leader, one line per household, with the headcount lines at the end. */
export async function repliesCsv(db: Executor, caller: Caller, uid: string) {
  const { title, date, replies } = await repliesFor(db, caller, uid)
  const totals = (await totalsByUid(db)).get(uid)!.totals
  const rows: (string | null)[][] = replies.map((r) => [
    r.household,
    r.answer,
    String(r.adults),
    String(r.scouts),
    r.note,
    r.answered_by,
    r.answered_at,
  ])
  for (const answer of RSVP_ANSWERS) {
    const count = totals[answer]
    rows.push([`Total: ${plural(count.households, 'household')}`, answer, String(count.adults), String(count.scouts), null, null, null])
  }
  return {
    filename: `replies-${date}-${
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'event'
    }.csv`,
    csv: csvDocument(['household', 'answer', 'adults', 'scouts', 'note', 'answered_by', 'answered_at'], rows),
  }
}

/** Upcoming events asking for replies, with the given households' replies: for the family page. */
export async function familyRsvps(db: Executor, households: number[]) {
  const events = await db
    .selectFrom('rsvp_events')
    .selectAll()
    .where('asking', '=', 1)
    .where('gone_at', 'is', null)
    .where('starts_at', '>', nowIso())
    .orderBy('starts_at')
    .execute()
  const out = []
  for (const e of events)
    out.push({
      ...factsOf(e),
      replies: households.length ? await repliesQuery(db, e.uid).where('rsvps.household_id', 'in', households).execute() : [],
    })
  return out
}
