// Replies to events that ask for them (RSVPs): a family answers yes, maybe or no with how many adults and
// scouts come, and may change it until the event starts; leaders see headcounts, the list and a CSV. Replies
// are kept here by event uid; an event deleted from the store keeps its replies readable for 30 days.
import type { Caller } from '../auth/credential.ts'
import { csvDocument, eventFileName } from '../csv.ts'
import { assertLeadsSlug, leadsSlug } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import type { Selectable } from 'kysely'
import { RSVP_ANSWERS, type RsvpEventTable } from './tables.ts'
import type { Executor } from '../db/database.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden, notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { dollars, eventWords, plural } from '../words.ts'
import { type CalendarEvent, firstOccurrence, toICalendar } from './event.ts'
import { answersCloseAt, money, owedBy, type Payment, signupOf, slotsFilled, type SignupSettings } from './signup.ts'
import { remindersOf } from './reminders.ts'
import { totalsByUid } from './counts.ts'
import { notAnswered } from './not-answered.ts'
import type { RsvpBody } from './rsvp-schemas.ts'
import { queueSignupMail, type SignupMail } from './signup-mail.ts'
import { assertOpen, moveWaitlistUp, saveAnswer } from './answer.ts'
import { cardDetails } from './reply-card.ts'
import { waitingOf } from './split.ts'
import { settleEventPayment } from '../money/event-payment.ts'

/** Days the replies of an event deleted from the store stay readable. */
export const RSVP_KEEP_DAYS = 30

type RsvpEventRow = Selectable<RsvpEventTable>

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

export function factsOf(e: RsvpEventRow, now = Date.now()) {
  const signup = signupOf(e)
  return {
    uid: e.uid,
    title: e.title,
    unit: e.unit,
    date: e.date,
    time: e.time,
    location: e.location,
    asking: e.asking === 1,
    open: e.asking === 1 && !e.gone_at && answersCloseAt({ starts_at: e.starts_at, signup }) > now,
    gone_at: e.gone_at,
    signup,
  }
}

/** The places and slots of an event with sign-ups, as families and leaders see them. */
export async function standing(db: Executor, e: RsvpEventRow) {
  const signup = signupOf(e)
  const replies = await db
    .selectFrom('rsvps')
    .select([
      'status',
      (eb) => eb.fn.coalesce(eb.fn.sum<number>('scouts'), eb.lit(0)).as('scouts'),
      (eb) => eb.fn.coalesce(eb.fn.sum<number>('waiting'), eb.lit(0)).as('waiting'),
    ])
    .where('uid', '=', e.uid)
    .where('answer', '=', 'yes')
    .groupBy('status')
    .execute()
  // The scouts still waiting of a split yes count as waitlisted, not confirmed.
  const split = Number(replies.find((r) => r.status === 'confirmed')?.waiting ?? 0)
  const count = (status: string) =>
    Number(replies.find((r) => r.status === status)?.scouts ?? 0) + (status === 'confirmed' ? -split : split)
  const filled = await slotsFilled(db, e.uid)
  return {
    ...(signup?.capacity !== undefined
      ? {
          places: {
            capacity: signup.capacity,
            confirmed: count('confirmed'),
            waitlisted: count('waitlisted'),
            left: Math.max(signup.capacity - count('confirmed'), 0),
          },
        }
      : {}),
    slots: (signup?.slots ?? []).map((s) => ({ ...s, filled: Number(filled.find((f) => f.name === s.name)?.n ?? 0) })),
  }
}

/** Where an event stands for replies: what it is, and when replies close (its start). */
function whenOf(uid: string, event: CalendarEvent, timeZone: string) {
  return factsFrom(firstOccurrence(toICalendar(uid, event, timeZone), timeZone)!)
}

const factsFrom = (o: { title: string; unit: CalendarEvent['unit']; date: string; time?: string; location?: string; start: number }) => ({
  title: o.title,
  unit: o.unit,
  date: o.date,
  time: o.time ?? null,
  location: o.location ?? null,
  starts_at: new Date(o.start).toISOString(),
})

/** When an event starts, for checking its sign-up's closing time before anything is written. */
export const startOf = (event: CalendarEvent, timeZone: string) => Date.parse(whenOf('start', event, timeZone).starts_at)

/**
 * On create and replace: an event asking for replies is remembered (again) with its sign-up settings; one that stops
 * asking keeps its replies. More places (or none) move the waitlist up; a changed permission slip asks those who
 * signed the old one to sign again. Both mail the families concerned when mail is set up.
 */
export async function setAsking(
  trx: Executor,
  actor: string,
  uid: string,
  event: CalendarEvent,
  asking: { rsvp: boolean; signup: SignupSettings | null; timeZone: string; mail: SignupMail },
) {
  const facts = whenOf(uid, event, asking.timeZone)
  const signup = asking.signup ? JSON.stringify(asking.signup) : null
  const known = await trx.selectFrom('rsvp_events').select('signup').where('uid', '=', uid).executeTakeFirst()
  if (known)
    await trx
      .updateTable('rsvp_events')
      .set({ ...facts, asking: asking.rsvp ? 1 : 0, gone_at: null, signup })
      .where('uid', '=', uid)
      .execute()
  else if (asking.rsvp)
    await trx
      .insertInto('rsvp_events')
      .values({ uid, ...facts, asking: 1, asked_by: actor, asked_at: nowIso(), signup })
      .execute()
  if (!known) return
  await moveWaitlistUp(trx, actor, { uid, ...facts, signup: asking.signup }, asking.mail)
  const text = asking.signup?.permission_text
  const before = known.signup ? signupOf(known)?.permission_text : undefined
  if (text && before && text !== before) {
    const resign = await trx
      .selectFrom('rsvp_permissions')
      .innerJoin('rsvps', (j) =>
        j.onRef('rsvps.uid', '=', 'rsvp_permissions.uid').onRef('rsvps.household_id', '=', 'rsvp_permissions.household_id'),
      )
      .select('rsvps.household_id')
      .where('rsvps.uid', '=', uid)
      .where('rsvps.answer', '=', 'yes')
      .where('rsvp_permissions.text', '!=', text)
      .execute()
    await queueSignupMail(
      trx,
      asking.mail,
      'sign_again',
      { uid, ...facts },
      resign.map((r) => r.household_id),
    )
  }
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
    const first = ics ? firstOccurrence(ics, timeZone) : undefined
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

/** The replies to an event, each with its sign-up parts: scouts named, permission as signed, slots and money. */
export async function replies(db: Executor, event: RsvpEventRow, households?: number[]) {
  if (households && !households.length) return []
  let query = db
    .selectFrom('rsvps')
    .innerJoin('households', 'households.id', 'rsvps.household_id')
    .leftJoin('rsvp_permissions as p', (j) => j.onRef('p.uid', '=', 'rsvps.uid').onRef('p.household_id', '=', 'rsvps.household_id'))
    .leftJoin('rsvp_payments as pay', (j) => j.onRef('pay.uid', '=', 'rsvps.uid').onRef('pay.household_id', '=', 'rsvps.household_id'))
    .select([
      'rsvps.household_id',
      'households.parent_name as household',
      'answer',
      'adults',
      'scouts',
      'rsvps.note',
      'answered_by',
      'answered_at',
      'status',
      'scout_ids',
      'waiting',
      'p.signed_name',
      'p.signed_at',
      'p.text as signed_text',
      'pay.paid_cents',
    ])
    .where('rsvps.uid', '=', event.uid)
    .orderBy('households.parent_name')
  if (households) query = query.where('rsvps.household_id', 'in', households)
  const rows = await query.execute()
  const slots = await db
    .selectFrom('rsvp_slots')
    .select(['household_id', 'name', 'count'])
    .where('uid', '=', event.uid)
    .orderBy('name')
    .execute()
  const signup = signupOf(event)
  return rows.map(({ signed_name, signed_at, signed_text, paid_cents, scout_ids, waiting, ...r }) => ({
    ...r,
    scout_ids: scout_ids ? (JSON.parse(scout_ids) as number[]) : null,
    ...waitingOf({ ...r, waiting, scout_ids: scout_ids ? JSON.parse(scout_ids) : null }),
    permission: signed_name && signed_at ? { signed_name, signed_at, current: signed_text === signup?.permission_text } : null,
    slots: slots.filter((s) => s.household_id === r.household_id).map(({ name, count }) => ({ name, count })),
    ...(signup?.cost_cents !== undefined ? money(owedBy(signup, { ...r, waiting }), paid_cents ?? 0) : {}),
  }))
}

export async function rsvpEvent(db: Executor, uid: string, leader: boolean) {
  const event = await db.selectFrom('rsvp_events').selectAll().where('uid', '=', uid).executeTakeFirst()
  // A family sees only events that ask now; a leader also the replies of ones that stopped or were deleted.
  if (!event || (!leader && (event.asking !== 1 || event.gone_at))) throw notFound('This event does not ask for replies')
  return event
}

/** GET: every reply with headcounts (and money) for a leader (calendar:write); the caller's own households' otherwise. */
export async function repliesFor(db: Executor, caller: Caller, uid: string) {
  const unit = (await db.selectFrom('rsvp_events').select('unit').where('uid', '=', uid).executeTakeFirst())?.unit
  // A leader of another unit who is also a parent reads as a family: their own households' replies, as anyone may.
  const leader = caller.capabilities.has('calendar:write') && (!unit || leadsSlug(caller, unit))
  const own = leader ? [] : await ownHouseholdIds(db, caller)
  // A leader of another unit is a family there only when they have a household: else the event is not theirs to read.
  if (!leader && unit && !own.length && caller.capabilities.has('calendar:write')) assertLeadsSlug(caller, unit, 'This event')
  const event = await rsvpEvent(db, uid, leader)
  const facts = { ...factsOf(event), ...(await standing(db, event)) }
  if (!leader) return { ...facts, replies: await replies(db, event, own) }
  const all = await replies(db, event)
  const cost = facts.signup?.cost_cents !== undefined
  return {
    ...facts,
    totals: (await totalsByUid(db)).get(uid)!.totals,
    ...(cost ? { money: money(sum(all, 'owed_cents'), sum(all, 'paid_cents')) } : {}),
    ...(facts.open ? { reminders: await remindersOf(db, event) } : {}),
    ...(await notAnswered(db, caller, event)),
    replies: all,
  }
}

const sum = <K extends string>(rows: Partial<Record<K, number>>[], key: K) => rows.reduce((n, r) => n + (r[key] ?? 0), 0)
/**
 * PUT: the caller's household answers, or changes its answer, until the event starts or its sign-up closes. With
 * sign-ups it names its scouts, signs the permission slip, takes slots, and takes a place or joins the waitlist.
 */
export async function answerFor(
  db: Db,
  caller: Caller,
  uid: string,
  body: typeof RsvpBody.static,
  context: { address: string | null; mail: SignupMail },
) {
  const event = await rsvpEvent(db, uid, false)
  await assertOpen(db, factsOf(event))
  const own = await ownHouseholdIds(db, caller)
  if (!own.length) throw forbidden('Your account is not linked to a household; ask a leader to link it on the roster')
  const household = body.household_id ?? (own.length === 1 ? own[0] : null)
  if (household === null) throw unprocessable('household_id: your account has several households; say which one answers')
  if (!own.includes(household)) throw forbidden('You can answer only for your own household')
  await saveAnswer(db, caller.actor, event, household, body, context)
  return (await replies(db, event, [household]))[0]
}

/**
 * PUT …/payment: a leader records what a household has paid in all (cash, check, online elsewhere); no card data here.
 * The ledger follows the total with a payment entry for the household.
 */
export async function recordPayment(db: Db, caller: Caller, uid: string, householdId: number, body: typeof Payment.static) {
  const event = await rsvpEvent(db, uid, true)
  assertLeadsSlug(caller, event.unit, `"${event.title}"`)
  const signup = signupOf(event)
  if (signup?.cost_cents === undefined) throw conflict('This event has no cost (signup.cost_cents); there is nothing to pay')
  const reply = (await replies(db, event, [householdId]))[0]
  if (!reply) throw notFound('That household has not replied to this event')
  const payment = {
    paid_cents: body.paid_cents,
    method: body.method,
    note: body.note?.trim() || null,
    recorded_by: caller.actor,
    recorded_at: nowIso(),
  }
  await write(db, async (trx) => {
    await trx
      .insertInto('rsvp_payments')
      .values({ uid, household_id: householdId, ...payment })
      .onConflict((oc) => oc.columns(['uid', 'household_id']).doUpdateSet(payment))
      .execute()
    const ledger = await settleEventPayment(trx, caller.actor, event, householdId, payment)
    await record(
      trx,
      caller.actor,
      'calendar.payment',
      `${reply.household}: paid ${dollars(payment.paid_cents)} in all (${payment.method}) for ${eventWords(event)}${ledger}`,
    )
  })
  return { household_id: householdId, household: reply.household, ...money(reply.owed_cents ?? 0, payment.paid_cents), ...payment }
}

/** The replies as CSV for a leader, one line per household, with the headcount lines at the end. */
export async function repliesCsv(db: Executor, caller: Caller, uid: string) {
  const event = await rsvpEvent(db, uid, true)
  assertLeadsSlug(caller, event.unit, `"${event.title}"`)
  const { title, date, replies: answered } = await repliesFor(db, caller, uid)
  const totals = (await totalsByUid(db)).get(uid)!.totals
  const rows: (string | null)[][] = answered.map((r) => [
    r.household,
    r.status === 'confirmed' && r.waitlisted_scouts ? `yes (${r.waitlisted_scouts} waitlisted)` : r.answer,
    String(r.adults),
    String(r.scouts),
    r.note,
    r.answered_by,
    r.answered_at,
  ])
  for (const answer of [...RSVP_ANSWERS, ...(totals.waitlisted ? (['waitlisted'] as const) : [])]) {
    const count = totals[answer]!
    rows.push([`Total: ${plural(count.households, 'household')}`, answer, String(count.adults), String(count.scouts), null, null, null])
  }
  return {
    filename: eventFileName('replies', date, title),
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
      ...(await standing(db, e)),
      details: await cardDetails(db, e),
      replies: await replies(db, e, households),
    })
  return out
}
