// Sign-ups, the part of a reply beyond "coming / not coming": which scouts come, places with a waitlist that moves up
// by itself, a closing time, a permission slip signed by name, volunteer slots (drivers, snacks), and what each
// household owes and has paid. The settings live with the event's replies (rsvp_events.signup), not in the calendar store.
import type { Executor } from '../db/database.ts'
import { unprocessable, conflict } from '../errors.ts'
import { Instant, Line, Lines, Nullable, OneOf, t, Timestamp, parseTimestamp } from '../schemas.ts'
import { PAYMENT_METHODS } from './tables.ts'
import { assertSplit, splitPlace } from './split.ts'

export const Slot = t.Object(
  {
    name: Line(100, { minLength: 1, description: 'What is needed: “Driver (4 seats)”, “Snacks”, “Tent setup”' }),
    needed: t.Integer({ minimum: 1, maximum: 50, description: 'How many volunteers' }),
  },
  { additionalProperties: false },
)

export const Signup = t.Object(
  {
    per_scout: t.Optional(t.Boolean({ description: 'Families choose which of their scouts come (scout_ids), and say how many adults' })),
    capacity: t.Optional(
      t.Integer({ minimum: 1, maximum: 1000, description: 'Places for scouts; a yes beyond them is waitlisted in the order answered' }),
    ),
    closes_at: t.Optional({ ...Timestamp, description: 'Answers after this moment are refused (409); at most the event start' }),
    cost_cents: t.Optional(t.Integer({ minimum: 0, maximum: 10_000_000, description: 'What each scout coming costs, in cents' })),
    permission_text: t.Optional(
      Lines(5000, { minLength: 1, description: 'A permission slip: a yes needs a parent to sign it by typing their name' }),
    ),
    slots: t.Optional(t.Array(Slot, { maxItems: 20, description: 'Volunteer slots, each name once' })),
  },
  {
    $id: 'Signup',
    additionalProperties: false,
    description: 'Sign-up settings of an event that asks for replies; every part optional',
    examples: [
      {
        per_scout: true,
        capacity: 24,
        closes_at: '2027-01-08T21:00:00-06:00',
        cost_cents: 3500,
        permission_text:
          'My scout may attend the winter campout at Camp Oak, January 15–17, and travel with the drivers the troop arranges.',
        slots: [
          { name: 'Driver (4 seats)', needed: 6 },
          { name: 'Saturday dinner', needed: 2 },
        ],
      },
    ],
  },
)
export type SignupSettings = typeof Signup.static

/** The sign-up settings a request gives, checked against the event: 422 naming the field. */
export function signupFrom(signup: SignupSettings | undefined, rsvp: boolean, startsAt: number): SignupSettings | null {
  if (!signup) return null
  if (!rsvp) throw unprocessable('signup: needs rsvp: true (sign-ups are part of asking families to reply)')
  if (signup.closes_at && parseTimestamp('signup.closes_at', signup.closes_at) > startsAt)
    throw unprocessable('signup.closes_at: must not be after the event starts')
  const names = (signup.slots ?? []).map((s) => s.name.trim().toLowerCase())
  if (names.some((n) => !n)) throw unprocessable('signup.slots: a slot needs a name')
  if (new Set(names).size !== names.length) throw unprocessable('signup.slots: each slot name once')
  return {
    ...signup,
    ...(signup.permission_text !== undefined ? { permission_text: signup.permission_text.trim() } : {}),
    ...(signup.slots ? { slots: signup.slots.map((s) => ({ name: s.name.trim(), needed: s.needed })) } : {}),
  }
}

export const signupOf = (row: { signup: string | null }): SignupSettings | null => (row.signup ? JSON.parse(row.signup) : null)

/** Closed for answers: `closes_at` has passed. */
export const signupClosed = (signup: SignupSettings | null, now = Date.now()) => !!signup?.closes_at && Date.parse(signup.closes_at) <= now

/** When an event stops taking answers (ms): its start, or its sign-up's closing time when that comes first. */
export const answersCloseAt = (event: { starts_at: string; signup: SignupSettings | null }) =>
  Math.min(Date.parse(event.starts_at), event.signup?.closes_at ? Date.parse(event.signup.closes_at) : Infinity)

// ——— The reply's sign-up parts ———

export const ReplySignupFields = {
  scout_ids: t.Optional(
    t.Array(t.Integer({ minimum: 1 }), {
      maxItems: 20,
      description: 'With signup.per_scout: which of the household’s scouts come (scouts is then their number)',
    }),
  ),
  permission: t.Optional(
    t.Object(
      { signed_name: Line(200, { minLength: 1, description: 'The parent’s name typed as a signature' }) },
      { additionalProperties: false, description: 'With signup.permission_text: the slip signed, needed with a yes' },
    ),
  ),
  slots: t.Optional(
    t.Array(
      t.Object({ name: Line(100, { minLength: 1 }), count: t.Integer({ minimum: 1, maximum: 50 }) }, { additionalProperties: false }),
      { maxItems: 20, description: 'Slots the household volunteers for; an empty list gives them up; absent keeps them' },
    ),
  ),
}

interface ReplyAsked {
  answer: 'yes' | 'maybe' | 'no'
  scouts: number
  scout_ids?: number[]
  permission?: { signed_name: string }
  slots?: { name: string; count: number }[]
  split?: boolean
}

/** A reply checked against the event's sign-up: the scouts it names, and its parts normalised; 422 naming the field. */
export async function replyParts(
  db: Executor,
  event: { unit: 'pack' | 'troop' | 'both'; signup: SignupSettings | null },
  household: number,
  body: ReplyAsked,
) {
  const { signup } = event
  let scoutIds: number[] | null = null
  if (body.scout_ids !== undefined) {
    if (!signup?.per_scout) throw unprocessable('scout_ids: this event does not ask which scouts come; give scouts as a number')
    const ids = [...new Set(body.scout_ids)]
    const own = ids.length
      ? await db
          .selectFrom('scouts')
          .innerJoin('units', 'units.id', 'scouts.unit_id')
          .select(['scouts.id', 'scouts.first_name', 'units.slug'])
          .where('scouts.household_id', '=', household)
          .where('scouts.id', 'in', ids)
          .execute()
      : []
    if (own.length !== ids.length) throw unprocessable('scout_ids: name only the scouts of your household')
    // A place, a fee and the attendance are the event's unit's: a scout of the other unit cannot take one.
    const elsewhere = own.find((s) => event.unit !== 'both' && s.slug !== event.unit)
    if (elsewhere) throw unprocessable(`scout_ids: ${elsewhere.first_name} is not in the ${event.unit}, whose event this is`)
    if (body.scouts !== ids.length) throw unprocessable('scouts: must be the number of scout_ids')
    // A split confirms the first ones in the order chosen, so it keeps that order.
    scoutIds = body.split ? ids : ids.sort((a, b) => a - b)
  } else if (signup?.per_scout && body.answer !== 'no' && body.scouts > 0)
    throw unprocessable('scout_ids: this event asks which scouts come; name them')
  const coming = body.answer === 'no' ? 0 : body.scouts
  if (body.permission && !signup?.permission_text) throw unprocessable('permission: this event has no permission slip')
  let slots: { name: string; count: number }[] | undefined
  if (body.slots !== undefined) {
    if (body.answer === 'no' && body.slots.length) throw unprocessable('slots: a household that is not coming cannot take a slot')
    const known = new Map((signup?.slots ?? []).map((s) => [s.name.toLowerCase(), s.name]))
    slots = []
    for (const s of body.slots) {
      const name = known.get(s.name.trim().toLowerCase())
      if (!name) throw unprocessable(`slots: “${s.name}” is not one of this event's slots`)
      if (slots.some((x) => x.name === name)) throw unprocessable(`slots: “${name}” named twice`)
      slots.push({ name, count: s.count })
    }
  } else if (body.answer === 'no') slots = []
  return { scoutIds, coming, slots }
}

/** With a permission slip, a yes needs it signed: now, or earlier on the same text. */
export async function needsSignature(trx: Executor, uid: string, household: number, signup: SignupSettings | null, body: ReplyAsked) {
  if (!signup?.permission_text || body.answer !== 'yes' || body.permission) return
  const signed = await trx
    .selectFrom('rsvp_permissions')
    .select('text')
    .where('uid', '=', uid)
    .where('household_id', '=', household)
    .executeTakeFirst()
  if (signed?.text !== signup.permission_text)
    throw unprocessable(
      signed
        ? 'permission: the permission slip changed since you signed it; read it and sign again (signed_name)'
        : 'permission: a yes needs the permission slip signed (signed_name)',
    )
}

/** Replaces the household's slots, refusing (409) a slot with no room left. */
export async function takeSlots(
  trx: Executor,
  uid: string,
  household: number,
  signup: SignupSettings | null,
  slots: { name: string; count: number }[],
) {
  await trx.deleteFrom('rsvp_slots').where('uid', '=', uid).where('household_id', '=', household).execute()
  for (const slot of slots) {
    const needed = signup?.slots?.find((s) => s.name === slot.name)?.needed ?? 0
    const [taken] = await slotsFilled(trx, uid, slot.name)
    const left = needed - Number(taken?.n ?? 0)
    if (slot.count > left)
      throw conflict(`slots: “${slot.name}” ${left > 0 ? `needs only ${left} more` : 'is filled'}; choose fewer or another slot`)
    await trx
      .insertInto('rsvp_slots')
      .values({ uid, household_id: household, ...slot })
      .execute()
  }
}

// ——— Places and the waitlist ———

/** Scouts in confirmed yes replies, other households than `except`. */
async function placesTaken(trx: Executor, uid: string, except?: number) {
  let query = trx
    .selectFrom('rsvps')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('scouts', '-', eb.ref('waiting'))), eb.lit(0)).as('n'))
    .where('uid', '=', uid)
    .where('answer', '=', 'yes')
    .where('status', '=', 'confirmed')
  if (except !== undefined) query = query.where('household_id', '!=', except)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

const anyoneWaiting = async (trx: Executor, uid: string, except: number) =>
  !!(await trx
    .selectFrom('rsvps')
    .select('household_id')
    .where('uid', '=', uid)
    .where('answer', '=', 'yes')
    .where((eb) => eb.or([eb('status', '=', 'waitlisted'), eb('waiting', '>', 0)]))
    .where('household_id', '!=', except)
    .executeTakeFirst())

/**
 * Where a reply stands: a yes joins the end of the line (or keeps its place) and is confirmed only when it and
 * everyone ahead fit; a confirmed household asking for more places than are left is refused (409) and keeps its own.
 * A split yes (split.ts) takes what is free now and leaves the rest waiting. Runs inside the reply's transaction, so two replies never take the same place.
 */
export async function placeReply(
  trx: Executor,
  uid: string,
  household: number,
  capacity: number | undefined,
  previous: { answer: string; status: string; queued_at: string | null; scouts: number; waiting: number } | undefined,
  reply: { answer: 'yes' | 'maybe' | 'no'; scouts: number; split?: boolean },
  now: string,
): Promise<{ status: 'confirmed' | 'waitlisted'; queued_at: string | null; waiting: number }> {
  assertSplit(capacity, reply)
  if (reply.answer !== 'yes') return { status: 'confirmed', queued_at: null, waiting: 0 }
  const wasYes = previous?.answer === 'yes'
  const queued_at = (wasYes && previous.queued_at) || now
  if (capacity === undefined) return { status: 'confirmed', queued_at, waiting: 0 }
  const held = wasYes && previous.status === 'confirmed'
  const had = held ? previous.scouts - previous.waiting : 0
  if (held && reply.scouts <= had) return { status: 'confirmed', queued_at, waiting: 0 }
  // Everyone else waits in line; the move-up after the write confirms whoever fits, in order.
  if (!held && !reply.split) return { status: 'waitlisted', queued_at, waiting: 0 }
  // More scouts: only into places nobody else is waiting for.
  const othersWait = await anyoneWaiting(trx, uid, household)
  const left = othersWait ? 0 : Math.max(capacity - (await placesTaken(trx, uid, household)) - had, 0)
  if (reply.split) return splitPlace(had, left, reply.scouts, othersWait, queued_at)
  if (reply.scouts - had > left)
    throw conflict(
      `${left > 0 ? `Only ${left} more places are free` : 'No more places are free'}; your ${had} stay yours, or reply with fewer scouts (or with split: true, the rest wait)`,
    )
  return { status: 'confirmed', queued_at, waiting: 0 }
}

/**
 * Confirms waitlisted households in the order they answered while their scouts fit, and the waiting scouts of a split
 * yes as places free, one by one; answers who moved up (`rest`: scouts of theirs still waiting).
 */
export async function moveUp(trx: Executor, uid: string, capacity: number | undefined) {
  const waiting = await trx
    .selectFrom('rsvps')
    .innerJoin('households', 'households.id', 'rsvps.household_id')
    .select(['rsvps.household_id', 'rsvps.scouts', 'rsvps.status', 'rsvps.waiting', 'rsvps.scout_ids', 'households.parent_name'])
    .where('rsvps.uid', '=', uid)
    .where('rsvps.answer', '=', 'yes')
    .where((eb) => eb.or([eb('rsvps.status', '=', 'waitlisted'), eb('rsvps.waiting', '>', 0)]))
    .orderBy('rsvps.queued_at')
    .orderBy('rsvps.household_id')
    .execute()
  if (!waiting.length) return []
  let taken = await placesTaken(trx, uid)
  // `before`: the reply as it stood, for charging the trip fees of the scouts it now has confirmed.
  const moved: { household_id: number; parent_name: string; scouts: number; rest: number; before: (typeof waiting)[number] }[] = []
  for (const w of waiting) {
    if (w.status === 'confirmed') {
      const k = Math.min(w.waiting, capacity === undefined ? w.waiting : Math.max(capacity - taken, 0))
      if (k) {
        taken += k
        await trx
          .updateTable('rsvps')
          .set({ waiting: w.waiting - k })
          .where('uid', '=', uid)
          .where('household_id', '=', w.household_id)
          .execute()
        moved.push({ household_id: w.household_id, parent_name: w.parent_name, scouts: k, rest: w.waiting - k, before: w })
      }
      if (k < w.waiting) break
      continue
    }
    if (capacity !== undefined && taken + w.scouts > capacity) break
    taken += w.scouts
    await trx.updateTable('rsvps').set({ status: 'confirmed' }).where('uid', '=', uid).where('household_id', '=', w.household_id).execute()
    moved.push({ household_id: w.household_id, parent_name: w.parent_name, scouts: w.scouts, rest: 0, before: w })
  }
  return moved
}

// ——— What each household owes ———

export const Payment = t.Object(
  {
    paid_cents: t.Integer({ minimum: 0, maximum: 100_000_000, description: 'What the household has paid in all, in cents' }),
    method: OneOf(PAYMENT_METHODS, { description: 'How it was paid; no card data is ever handled here' }),
    note: t.Optional(Line(300, { description: 'A check number, who took the cash' })),
  },
  { additionalProperties: false, examples: [{ paid_cents: 7000, method: 'check', note: 'Check 1042' }] },
)

export const Money = t.Object(
  {
    owed_cents: t.Integer({ description: 'cost_cents × the scouts confirmed' }),
    paid_cents: t.Integer(),
    balance_cents: t.Integer({ description: 'Owed minus paid: above 0 still to pay, below 0 to pay back' }),
  },
  { additionalProperties: false },
)

export const PaymentView = t.Object(
  {
    household_id: t.Integer(),
    household: t.String(),
    ...Money.properties,
    method: Nullable(OneOf(PAYMENT_METHODS)),
    note: Nullable(t.String()),
    recorded_by: Nullable(t.String()),
    recorded_at: Nullable(Instant),
  },
  {
    $id: 'Payment',
    additionalProperties: false,
    examples: [
      {
        household_id: 12,
        household: 'Dana Rivera',
        owed_cents: 7000,
        paid_cents: 7000,
        balance_cents: 0,
        method: 'check',
        note: 'Check 1042',
        recorded_by: 'leader@example.org',
        recorded_at: '2026-11-24T19:04:05.000Z',
      },
    ],
  },
)

export const money = (owed: number, paid: number) => ({ owed_cents: owed, paid_cents: paid, balance_cents: owed - paid })

/** What a reply owes: the cost of each scout confirmed. */
export const owedBy = (signup: SignupSettings | null, reply: { answer: string; status: string; scouts: number; waiting: number }) =>
  signup?.cost_cents && reply.answer === 'yes' && reply.status === 'confirmed' ? signup.cost_cents * (reply.scouts - reply.waiting) : 0

/** How many have taken each slot of an event (or one slot), leaving out households waiting for a place. */
export function slotsFilled(db: Executor, uid: string, name?: string) {
  return db
    .selectFrom('rsvp_slots')
    .innerJoin('rsvps', (j) => j.onRef('rsvps.uid', '=', 'rsvp_slots.uid').onRef('rsvps.household_id', '=', 'rsvp_slots.household_id'))
    .select(['rsvp_slots.name', (eb) => eb.fn.coalesce(eb.fn.sum<number>('rsvp_slots.count'), eb.lit(0)).as('n')])
    .where('rsvp_slots.uid', '=', uid)
    .where('rsvps.status', '!=', 'waitlisted')
    .$if(name !== undefined, (q) => q.where('rsvp_slots.name', '=', name!))
    .groupBy('rsvp_slots.name')
    .execute()
}
