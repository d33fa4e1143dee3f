// Trip fees: a scout confirmed on an event whose sign-up has a cost is charged as they become confirmed — a yes, the
// first scouts of a split yes, a move-up from the waitlist — and the charge is reversed when they stop being confirmed
// before the sign-up closes; after it closes the charge stays (decision 0133). It runs inside the transaction of the
// reply or move-up, so the reply, its charges and their action-log entries commit together. A scout has at most one
// open trip charge per event, however often a reply is saved.
import type { Executor } from '../db/database.ts'
import { record } from '../db/write.ts'
import { answersCloseAt, type SignupSettings } from '../calendar/signup.ts'
import { today } from '../settings/registry.ts'
import { dayWords, dollars, listWords, plural, scoutName } from '../words.ts'
import { insertEntry, insertReversal } from './commands.ts'
import { settleDues } from './dues-checks.ts'
import type { MoneyEntry } from './tables.ts'

/** A place on an event: the scout's id when the reply names its scouts, null for a place of a reply that counts them. */
export type Place = number | null

export interface TripEvent {
  uid: string
  title: string
  date: string
  starts_at: string
  signup: SignupSettings | null
}

interface ReplyRow {
  answer: string
  status: string
  scouts: number
  waiting: number
  scout_ids: string | null
}

/** The places a reply holds confirmed: none unless it is a confirmed yes, and only the first ones of a split yes. */
export function confirmedPlaces(r: ReplyRow | undefined): Place[] {
  if (!r || r.answer !== 'yes' || r.status !== 'confirmed') return []
  const n = r.scouts - r.waiting
  return r.scout_ids ? (JSON.parse(r.scout_ids) as number[]).slice(0, n) : Array<Place>(n).fill(null)
}

/** `from` without one of each place in `take`: the places only `from` has. */
function without(from: Place[], take: Place[]) {
  const rest = [...from]
  for (const p of take) {
    const i = rest.indexOf(p)
    if (i >= 0) rest.splice(i, 1)
  }
  return rest
}

/** Sign-up closes at its closing time, or when the event starts if that comes first. */
export const tripClosed = (event: TripEvent, now = Date.now()) => answersCloseAt(event) <= now

/** The household's trip charges for the event that no entry has reversed, newest first. */
function openCharges(trx: Executor, uid: string, household: number) {
  return trx
    .selectFrom('money_entries as e')
    .selectAll('e')
    .where('e.event_uid', '=', uid)
    .where('e.household_id', '=', household)
    .where('e.origin', '=', 'trip_fee')
    .where('e.reverses_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('money_entries as undo').select('undo.id').whereRef('undo.reverses_id', '=', 'e.id'))),
    )
    .orderBy('e.id', 'desc')
    .execute()
}

/**
 * Charges the places `household` holds confirmed now (`after`) and did not before, and reverses those it held and no
 * longer does while sign-up is open; logs what it did as `money.trip_fee`. A place that already has its open charge is
 * not charged again, so a retry or a re-saved reply changes nothing.
 */
export async function settleTripFees(trx: Executor, actor: string, event: TripEvent, household: number, before: Place[], after: Place[]) {
  const cost = event.signup?.cost_cents ?? 0
  const joined = cost ? without(after, before) : []
  const left = tripClosed(event) ? [] : without(before, after)
  if (!joined.length && !left.length) return
  const open = await openCharges(trx, event.uid, household)
  const wanted = (p: Place) => after.filter((q) => q === p).length
  const held = (p: Place) => open.filter((e) => e.scout_id === p)
  const memo = `${event.title}, ${dayWords(event.date, { year: true })}`
  const date = await today(trx)
  const charged: Place[] = []
  const reversed: MoneyEntry[] = []
  for (const place of joined) {
    if (held(place).length + charged.filter((q) => q === place).length >= wanted(place)) continue
    await insertEntry(trx, actor, {
      household_id: household,
      scout_id: place,
      kind: 'charge',
      amount_cents: cost,
      date,
      memo,
      event_uid: event.uid,
      origin: 'trip_fee',
    })
    charged.push(place)
  }
  for (const place of left) {
    const entry = held(place)[0]
    if (!entry || held(place).length <= wanted(place)) continue
    await insertReversal(trx, actor, entry, `Reverses: ${entry.memo} (no longer coming)`)
    open.splice(open.indexOf(entry), 1)
    reversed.push(entry)
  }
  if (!charged.length && !reversed.length) return
  const settled = await settleDues(trx, actor, household)
  const who = await namesOf(trx, household)
  const done = [
    charged.length ? `charged ${dollars(cost)} each for ${who(charged)}` : '',
    reversed.length
      ? `reversed ${dollars(reversed.reduce((n, e) => n + e.amount_cents, 0))} for ${who(reversed.map((e) => e.scout_id))}, no longer coming`
      : '',
  ].filter(Boolean)
  await record(trx, actor, 'money.trip_fee', `${who.household}: trip fee for “${memo}”: ${done.join('; ')}${settled}`)
}

/**
 * An event deleted before it starts owes nobody anything: every open trip charge for it is reversed, whether or not its
 * sign-up had closed, and each household's reversal is logged as `money.trip_fee`.
 */
export async function reverseTripFeesOf(trx: Executor, actor: string, event: { uid: string; title: string; date: string }) {
  const open = await trx
    .selectFrom('money_entries as e')
    .selectAll('e')
    .where('e.event_uid', '=', event.uid)
    .where('e.origin', '=', 'trip_fee')
    .where('e.kind', '=', 'charge')
    .where('e.reverses_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('money_entries as undo').select('undo.id').whereRef('undo.reverses_id', '=', 'e.id'))),
    )
    .orderBy('e.id')
    .execute()
  const memo = `${event.title}, ${dayWords(event.date, { year: true })}`
  for (const household of new Set(open.map((e) => e.household_id))) {
    const entries = open.filter((e) => e.household_id === household)
    for (const entry of entries) await insertReversal(trx, actor, entry, `Reverses: ${entry.memo} (event cancelled)`)
    const settled = await settleDues(trx, actor, household)
    const who = await namesOf(trx, household)
    const total = dollars(entries.reduce((n, e) => n + e.amount_cents, 0))
    await record(
      trx,
      actor,
      'money.trip_fee',
      `${who.household}: trip fee for “${memo}”: reversed ${total} for ${who(entries.map((e) => e.scout_id))}, event cancelled${settled}`,
    )
  }
}

/** Words for the places of a household's scouts: "Jamie and Sam", "2 places". */
async function namesOf(trx: Executor, household: number) {
  const scouts = await trx
    .selectFrom('scouts')
    .select(['id', 'first_name', 'preferred_name', 'last_name'])
    .where('household_id', '=', household)
    .execute()
  const { parent_name } = await trx.selectFrom('households').select('parent_name').where('id', '=', household).executeTakeFirstOrThrow()
  const words = (places: Place[]) => {
    const named = places.filter((p) => p !== null).map((id) => scouts.find((s) => s.id === id))
    const counted = places.filter((p) => p === null).length
    return listWords([...named.map((s) => (s ? scoutName(s) : 'a scout')), ...(counted ? [plural(counted, 'place')] : [])])
  }
  return Object.assign(words, { household: parent_name })
}
