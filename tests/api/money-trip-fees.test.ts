// Trip fees in the ledger: a scout confirmed on an event with a cost is charged as they become confirmed (a yes, a split
// yes's first scouts, a move-up from the waitlist, more places given by the leader), never while waitlisted and never
// twice; leaving before sign-up closes reverses the charge, after it the charge stays; a changed cost charges the new
// amount from then on. The event's payment route keeps its answer and keeps one household payment entry in line with
// the total. Concurrent replies of one household leave exactly one charge per place.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { saveAnswer } from '../../server/calendar/answer.ts'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { addDays, today } from '../dates.ts'

let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
})
afterAll(() => s.stop())

const date = addDays(today(), 30)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const rsvps = (uid: string) => `${eventPath(uid)}/rsvps`

async function createEvent(title: string, signup: Record<string, unknown>) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: leader.cookie,
    json: { title, date, unit: 'pack', rsvp: true, signup },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}
const changeEvent = async (uid: string, title: string, signup: Record<string, unknown>) =>
  expect(
    (await s.req('PUT', eventPath(uid), { cookie: leader.cookie, json: { title, date, unit: 'pack', rsvp: true, signup } })).status,
  ).toBe(200)

type Family = Awaited<ReturnType<typeof familyAccount>>
const family = (scouts = 1): Promise<Family> => familyAccount(s, { unit: 'pack', email: null, scouts })
const reply = (f: Family, uid: string, json: Record<string, unknown>) =>
  s.req('PUT', rsvps(uid), { cookie: f.cookie, json: { adults: 1, ...json } })
const yes = async (f: Family, uid: string, scoutIds: number[], extra: Record<string, unknown> = {}) => {
  const res = await reply(f, uid, { answer: 'yes', scouts: scoutIds.length, scout_ids: scoutIds, ...extra })
  expect(res.status).toBe(200)
  return res.body
}
const no = async (f: Family, uid: string) => expect((await reply(f, uid, { answer: 'no', scouts: 0 })).status).toBe(200)

/** The household's ledger entries for the event, oldest first, as the treasurer's list gives them. */
async function entries(uid: string, household: number) {
  const res = await s.req('GET', `/api/admin/money/entries?event_uid=${encodeURIComponent(uid)}&household_id=${household}&limit=100`, {
    cookie: leader.cookie,
  })
  expect(res.status).toBe(200)
  return (res.body.entries as any[]).reverse()
}
/** Scout ids (null: a place of a reply that counts its scouts) with an open trip charge for the event. */
const charged = async (uid: string, household: number) =>
  (await entries(uid, household))
    .filter((e) => e.kind === 'charge' && e.reverses_id === null && e.reversed_by_id === null)
    .map((e) => e.scout_id)
    .sort()
const balance = async (household: number) =>
  (await s.req('GET', '/api/admin/money/accounts?unit=pack', { cookie: leader.cookie })).body.accounts.find(
    (a: any) => a.household_id === household && !('scout_id' in a),
  )?.balance_cents ?? 0

describe('charging a scout when confirmed', () => {
  it('a yes charges each confirmed scout once, with the event and its title and date; saying it again charges nothing more', async () => {
    const uid = await createEvent('Cave trip', { per_scout: true, cost_cents: 3500 })
    const f = await family(2)
    const answered = await yes(f, uid, f.scouts)
    expect(answered).toMatchObject({ status: 'confirmed', owed_cents: 7000, paid_cents: 0, balance_cents: 7000 })
    const [first, second] = await entries(uid, f.household)
    expect(first).toMatchObject({ kind: 'charge', amount_cents: 3500, event_uid: uid, scout_id: f.scouts[0], household_id: f.household })
    expect(first.memo).toStartWith('Cave trip, ')
    expect(first.memo).toContain(date.slice(0, 4))
    expect(first.created_by).toBe(f.email)
    expect(second.scout_id).toBe(f.scouts[1])
    expect((await s.lastLog('money.trip_fee')).summary).toContain('charged $35.00 each for Sam and Kid1')
    expect(await balance(f.household)).toBe(7000)

    // The same reply again, a note changed, a retry: still one open charge per scout.
    await yes(f, uid, f.scouts)
    await yes(f, uid, f.scouts, { note: 'Sam needs a sleeping bag' })
    await yes(f, uid, [...f.scouts].reverse())
    expect(await entries(uid, f.household)).toHaveLength(2)
    expect(await balance(f.household)).toBe(7000)

    // Only their own household sees the amounts on the family page.
    const own = (await s.req('GET', '/api/admin/family/money', { cookie: f.cookie })).body.statements
    expect(own).toHaveLength(1)
    expect(own[0]).toMatchObject({ household_id: f.household, owed_cents: 7000 })
    expect(own[0].scouts.flatMap((sc: any) => sc.lines.map((l: any) => [l.memo, l.cents]))).toEqual([
      [first.memo, 3500],
      [first.memo, 3500],
    ])
    const other = await family()
    expect((await s.req('GET', '/api/admin/family/money', { cookie: other.cookie })).body.statements).toEqual([])
    expect((await s.req('GET', rsvps(uid), { cookie: other.cookie })).body.replies).toEqual([])
  })

  it('a reply that counts its scouts charges the household once per confirmed place; more places more, fewer reversed', async () => {
    const uid = await createEvent('Bowling night', { cost_cents: 1200 })
    const f = await family(3)
    expect((await reply(f, uid, { answer: 'yes', scouts: 2 })).status).toBe(200)
    expect(await charged(uid, f.household)).toEqual([null, null])
    expect((await reply(f, uid, { answer: 'yes', scouts: 3 })).status).toBe(200)
    expect(await charged(uid, f.household)).toEqual([null, null, null])
    expect((await reply(f, uid, { answer: 'yes', scouts: 1 })).status).toBe(200)
    expect(await charged(uid, f.household)).toEqual([null])
    expect((await s.lastLog('money.trip_fee')).summary).toContain('reversed $24.00 for 2 places, no longer coming')
    expect(await balance(f.household)).toBe(1200)
  })

  it('a free event charges nothing, and a maybe is not confirmed', async () => {
    const free = await createEvent('Flag ceremony', { per_scout: true })
    const f = await family()
    await yes(f, free, f.scouts)
    expect(await entries(free, f.household)).toEqual([])
    const paid = await createEvent('Zoo day', { per_scout: true, cost_cents: 900 })
    expect((await reply(f, paid, { answer: 'maybe', scouts: 1, scout_ids: f.scouts })).status).toBe(200)
    expect(await entries(paid, f.household)).toEqual([])
  })
})

describe('the waitlist', () => {
  it('a waitlisted scout is not charged; moving up charges them, in the transaction of the reply that freed the place', async () => {
    const uid = await createEvent('Ski day', { per_scout: true, capacity: 1, cost_cents: 4000 })
    const [a, b] = [await family(), await family()]
    await yes(a, uid, a.scouts)
    expect((await yes(b, uid, b.scouts)).status).toBe('waitlisted')
    expect(await entries(uid, b.household)).toEqual([])
    expect(await balance(b.household)).toBe(0)

    await no(a, uid)
    const [charge, reversal] = await entries(uid, a.household)
    expect(reversal).toMatchObject({ reverses_id: charge.id, kind: 'charge', amount_cents: 4000, scout_id: a.scouts[0] })
    expect(reversal.memo).toBe(`Reverses: ${charge.memo} (no longer coming)`)
    expect(await balance(a.household)).toBe(0)
    // b moved up with a's reply: its charge is a's doing, logged with the move-up.
    const [moved] = await entries(uid, b.household)
    expect(moved).toMatchObject({ kind: 'charge', scout_id: b.scouts[0], amount_cents: 4000, created_by: a.email })
    expect(await balance(b.household)).toBe(4000)
  })

  it('more places given by the leader charge those who move up', async () => {
    const uid = await createEvent('Rafting', { per_scout: true, capacity: 1, cost_cents: 6000 })
    const [a, b] = [await family(), await family()]
    await yes(a, uid, a.scouts)
    await yes(b, uid, b.scouts)
    expect(await charged(uid, b.household)).toEqual([])
    await changeEvent(uid, 'Rafting', { per_scout: true, capacity: 2, cost_cents: 6000 })
    expect(await charged(uid, b.household)).toEqual([b.scouts[0]])
    expect((await entries(uid, b.household))[0].created_by).toBe(leader.email)
  })

  it('a split household is charged for the scouts confirmed now, and for each one as it moves up', async () => {
    const uid = await createEvent('Lock-in', { per_scout: true, capacity: 3, cost_cents: 2500 })
    const [a, c] = [await family(), await family(3)]
    await yes(a, uid, a.scouts)
    const chosen = [c.scouts[2], c.scouts[0], c.scouts[1]]
    expect(await yes(c, uid, chosen, { split: true })).toMatchObject({ waitlisted_scout_ids: [c.scouts[1]], owed_cents: 5000 })
    expect(await charged(uid, c.household)).toEqual([c.scouts[0], c.scouts[2]].sort())
    await yes(c, uid, chosen, { split: true }) // the same split again
    expect(await entries(uid, c.household)).toHaveLength(2)

    await no(a, uid)
    expect(await charged(uid, c.household)).toEqual([...c.scouts].sort())
    expect(await balance(c.household)).toBe(7500)
  })
})

describe('leaving', () => {
  it('before sign-up closes reverses the charge of each scout who leaves: a scout taken off the reply, a maybe, a no', async () => {
    const uid = await createEvent('Museum overnight', { per_scout: true, cost_cents: 3000 })
    const f = await family(2)
    await yes(f, uid, f.scouts)
    await yes(f, uid, [f.scouts[1]])
    expect(await charged(uid, f.household)).toEqual([f.scouts[1]])
    expect(await balance(f.household)).toBe(3000)
    expect((await reply(f, uid, { answer: 'maybe', scouts: 1, scout_ids: [f.scouts[1]] })).status).toBe(200)
    expect(await charged(uid, f.household)).toEqual([])
    // Coming back is a new charge; leaving again reverses it. Nothing is ever deleted.
    await yes(f, uid, [f.scouts[0]])
    await no(f, uid)
    const all = await entries(uid, f.household)
    expect(all.map((e) => [e.scout_id, e.reverses_id === null ? 'charge' : 'reversal'])).toEqual([
      [f.scouts[0], 'charge'],
      [f.scouts[1], 'charge'],
      [f.scouts[0], 'reversal'],
      [f.scouts[1], 'reversal'],
      [f.scouts[0], 'charge'],
      [f.scouts[0], 'reversal'],
    ])
    expect(await balance(f.household)).toBe(0)
  })

  it('after sign-up closes the charge stays: the family can no longer leave, a reply written as it closed keeps it', async () => {
    const uid = await createEvent('Camporee', { per_scout: true, cost_cents: 4500 })
    const f = await family()
    await yes(f, uid, f.scouts)
    await changeEvent(uid, 'Camporee', { per_scout: true, cost_cents: 4500, closes_at: new Date(Date.now() - 60_000).toISOString() })
    expectDetail(await reply(f, uid, { answer: 'no', scouts: 0 }), 409)
    // A no that passed the open check a moment before the close and is written after it.
    const event = await s.db.selectFrom('rsvp_events').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow()
    await saveAnswer(s.db, f.email, event, f.household, { answer: 'no', adults: 0, scouts: 0 }, { address: null, mail: null })
    expect((await s.db.selectFrom('rsvps').select('answer').where('uid', '=', uid).executeTakeFirstOrThrow()).answer).toBe('no')
    expect(await charged(uid, f.household)).toEqual([f.scouts[0]])
    expect(await balance(f.household)).toBe(4500)
    // The leader opens sign-up again and the scout comes after all: the charge kept covers them, nothing is added.
    await changeEvent(uid, 'Camporee', { per_scout: true, cost_cents: 4500 })
    await yes(f, uid, f.scouts)
    expect(await entries(uid, f.household)).toHaveLength(1)
    expect(await balance(f.household)).toBe(4500)
  })
})

describe('a changed cost', () => {
  it('keeps the charges made; scouts confirmed from then on are charged the new cost', async () => {
    const uid = await createEvent('Climbing gym', { per_scout: true, cost_cents: 2000 })
    const [a, b] = [await family(), await family()]
    await yes(a, uid, a.scouts)
    await changeEvent(uid, 'Climbing gym', { per_scout: true, cost_cents: 2600 })
    await yes(a, uid, a.scouts)
    await yes(b, uid, b.scouts)
    expect((await entries(uid, a.household)).map((e) => e.amount_cents)).toEqual([2000])
    expect((await entries(uid, b.household)).map((e) => e.amount_cents)).toEqual([2600])
  })
})

describe('PUT …/rsvps/{household_id}/payment', () => {
  it('answers as before and keeps one household payment entry in line with the total; un-marking it reverses it', async () => {
    const uid = await createEvent('Canoe trip', { per_scout: true, cost_cents: 3500 })
    const f = await family(2)
    await yes(f, uid, f.scouts)
    const pay = (json: Record<string, unknown>) => s.req('PUT', `${rsvps(uid)}/${f.household}/payment`, { cookie: leader.cookie, json })
    const paid = await pay({ paid_cents: 5000, method: 'check', note: 'Check 1042' })
    expect(paid.status).toBe(200)
    expect(paid.body).toEqual({
      household_id: f.household,
      household: 'Parent without mail',
      owed_cents: 7000,
      paid_cents: 5000,
      balance_cents: 2000,
      method: 'check',
      note: 'Check 1042',
      recorded_by: leader.email,
      recorded_at: expect.any(String),
    })
    expect((await s.lastLog('calendar.payment')).summary).toStartWith('Parent without mail: paid $50.00 in all (check) for “Canoe trip”')
    expect((await s.lastLog('calendar.payment')).summary).toEndWith('; ledger: payment of $50.00 entered')
    const payments = async () => (await entries(uid, f.household)).filter((e) => e.kind === 'payment')
    expect(await payments()).toEqual([
      expect.objectContaining({
        kind: 'payment',
        amount_cents: 5000,
        method: 'check',
        reference: 'Check 1042',
        event_uid: uid,
        scout_id: null,
        memo: expect.stringMatching(/^Paid for Canoe trip, /),
      }),
    ])
    expect(await balance(f.household)).toBe(2000)

    // The same total again writes no entry; a new total reverses the old entry and enters the new one.
    await pay({ paid_cents: 5000, method: 'check', note: 'Check 1042' })
    expect(await payments()).toHaveLength(1)
    expect((await pay({ paid_cents: 7000, method: 'cash' })).body.balance_cents).toBe(0)
    const [old, undo, now] = await payments()
    expect(undo).toMatchObject({ reverses_id: old.id, amount_cents: 5000 })
    expect(now).toMatchObject({ amount_cents: 7000, method: 'cash', reference: null, reverses_id: null })
    expect(await balance(f.household)).toBe(0)

    // Un-marking paid reverses the payment; the household owes the whole trip again.
    const unpaid = await pay({ paid_cents: 0, method: 'other' })
    expect(unpaid.body).toMatchObject({ owed_cents: 7000, paid_cents: 0, balance_cents: 7000 })
    expect((await payments()).at(-1)).toMatchObject({ reverses_id: now.id, amount_cents: 7000 })
    expect(await balance(f.household)).toBe(7000)
    expect((await pay({ paid_cents: 100, method: 'card' })).status).toBe(422)
    expect((await pay({ paid_cents: 100, method: 'cash' })).status).toBe(200)
    expect(await balance(f.household)).toBe(6900)
  })

  it('the treasurer’s report counts the trip’s charges and payments by event', async () => {
    const uid = await createEvent('Science center', { per_scout: true, cost_cents: 1500 })
    const [a, b] = [await family(2), await family()]
    await yes(a, uid, a.scouts)
    await yes(b, uid, b.scouts)
    await no(b, uid)
    await s.req('PUT', `${rsvps(uid)}/${a.household}/payment`, { cookie: leader.cookie, json: { paid_cents: 2000, method: 'cash' } })
    const report = await s.req('GET', '/api/admin/money/report?unit=pack', { cookie: leader.cookie })
    expect(report.status).toBe(200)
    expect(report.body.by_event).toContainEqual({ event_uid: uid, title: 'Science center', charge_cents: 3000, payment_cents: 2000 })
  })
})

describe('concurrent replies for one household', () => {
  it('leave exactly one open charge per confirmed scout, whichever reply is written last', async () => {
    const uid = await createEvent('Overnight at the aquarium', { per_scout: true, capacity: 10, cost_cents: 5000 })
    const f = await family(2)
    const same = await Promise.all(Array.from({ length: 8 }, () => reply(f, uid, { answer: 'yes', scouts: 2, scout_ids: f.scouts })))
    expect(same.every((r) => r.status === 200)).toBe(true)
    expect(await charged(uid, f.household)).toEqual([...f.scouts].sort())

    const bodies = [
      { answer: 'no', scouts: 0 },
      { answer: 'yes', scouts: 1, scout_ids: [f.scouts[0]] },
      { answer: 'yes', scouts: 2, scout_ids: f.scouts },
      { answer: 'maybe', scouts: 1, scout_ids: [f.scouts[1]] },
      { answer: 'yes', scouts: 1, scout_ids: [f.scouts[1]] },
    ]
    const mixed = await Promise.all(Array.from({ length: 15 }, (_, i) => reply(f, uid, bodies[i % bodies.length])))
    expect(mixed.every((r) => r.status === 200)).toBe(true)
    const last = await s.db
      .selectFrom('rsvps')
      .selectAll()
      .where('uid', '=', uid)
      .where('household_id', '=', f.household)
      .executeTakeFirstOrThrow()
    const confirmed = last.answer === 'yes' ? (JSON.parse(last.scout_ids!) as number[]) : []
    expect(await charged(uid, f.household)).toEqual([...confirmed].sort())
    expect(await balance(f.household)).toBe(5000 * confirmed.length)
  })
})
