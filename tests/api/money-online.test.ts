// Online payments: Stripe's webhook on a real port, posted by a stand-in that signs its events with the stripe package's
// own test-header helper; a wrong signature is refused and logged, a retried event counts once, and a payment naming
// no household waits for the treasurer to assign it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import Stripe from 'stripe'
import { Logger, useLogger } from '../../server/ops/log.ts'
import { expectDetail, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'

const SECRET = 'whsec_test0123456789abcdefghijklmnop'
let s: TestServer
let treasurer: { cookie: string }
const logged: string[] = []
beforeAll(async () => {
  s = await startServer({ STRIPE_WEBHOOK_SECRET: SECRET })
  treasurer = await s.as(ROLES.packLeader)
  useLogger(new Logger('json', (line) => logged.push(line)))
})
afterAll(async () => {
  useLogger(null)
  await s.stop()
})

let serial = 0
/** A paid checkout as Stripe sends it (the fields we read, and a few we do not). */
const checkout = (reference: string | null, amount = 4500, extra: Record<string, unknown> = {}) => ({
  id: `evt_test_${++serial}`,
  object: 'event',
  type: 'checkout.session.completed',
  created: Math.floor(Date.now() / 1000),
  data: {
    object: {
      id: `cs_test_${serial}`,
      object: 'checkout.session',
      amount_total: amount,
      currency: 'usd',
      client_reference_id: reference,
      customer_details: { email: 'payer@example.org' },
      payment_status: 'paid',
      ...extra,
    },
  },
})

/** Posts `event` as Stripe would: the exact JSON, signed over those bytes. */
async function deliver(event: object, secret = SECRET, options: { timestamp?: number } = {}) {
  const payload = JSON.stringify(event)
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, ...options })
  return s.req('POST', '/api/payments/stripe', {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  })
}

const referenceOf = async (householdId: number) =>
  (await s.db.selectFrom('households').select('payment_reference').where('id', '=', householdId).executeTakeFirstOrThrow())
    .payment_reference
const onlineEntries = (householdId: number) =>
  s.db.selectFrom('money_entries').selectAll().where('household_id', '=', householdId).where('method', '=', 'online').execute()

describe('POST /api/payments/stripe', () => {
  it('records a paid checkout as a payment for the household its reference names; the balance drops', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [scout] = await s.db.selectFrom('scouts').select('id').where('household_id', '=', h).execute()
    await s.req('POST', '/api/admin/money/entries', {
      cookie: treasurer.cookie,
      json: { scout_id: scout.id, kind: 'charge', amount_cents: 4500, date: '2026-11-20', memo: 'Campout' },
    })
    const event = checkout((await referenceOf(h)).toLowerCase())
    const res = await deliver(event)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ received: true, recorded: true })
    const [entry] = await onlineEntries(h)
    expect(entry).toMatchObject({
      kind: 'payment',
      amount_cents: 4500,
      method: 'online',
      reference: event.data.object.id,
      created_by: 'stripe',
      scout_id: null,
    })
    const accounts = await s.req('GET', '/api/admin/money/accounts', { cookie: treasurer.cookie })
    expect(accounts.body.accounts.find((a: any) => a.household_id === h && !('scout_id' in a)).balance_cents).toBe(0)
    expect((await s.lastLog('money.online')).summary).toContain('$45.00')
  })

  it('counts an event once however often Stripe retries it, ten times at once, and a second event for the same session not at all', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const event = checkout(await referenceOf(h), 2500)
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(event)))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    expect(answers.filter((a) => a.body.recorded).length).toBe(1)
    const again = { ...event, id: `evt_test_${++serial}` }
    expect((await deliver(again)).body).toEqual({ received: true, recorded: false })
    expect((await onlineEntries(h)).length).toBe(1)
  })

  it('refuses a wrong, missing or stale signature with 400 bad_signature, logged, and records nothing', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const event = checkout(await referenceOf(h))
    const wrong = await deliver(event, 'whsec_someoneelse0123456789abcdef')
    expect(wrong.body.code).toBe('bad_signature')
    expectDetail(wrong, 400)
    const stale = await deliver(event, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 3600 })
    expect([stale.status, stale.body.code]).toEqual([400, 'bad_signature'])
    const unsigned = await s.req('POST', '/api/payments/stripe', {
      body: JSON.stringify(event),
      headers: { 'content-type': 'application/json' },
    })
    expect([unsigned.status, unsigned.body.code]).toEqual([400, 'bad_signature'])
    const tampered = JSON.stringify(event)
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload: tampered, secret: SECRET })
    const changed = await s.req('POST', '/api/payments/stripe', {
      body: tampered.replace('4500', '450000'),
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    })
    expect([changed.status, changed.body.code]).toEqual([400, 'bad_signature'])
    expect((await onlineEntries(h)).length).toBe(0)
    expect(logged.filter((l) => l.includes('payments.bad_signature')).length).toBeGreaterThanOrEqual(4)
  })

  it('acknowledges other events and unpaid checkouts without recording them', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const other = { ...checkout(await referenceOf(h)), type: 'customer.created' }
    expect((await deliver(other)).body).toEqual({ received: true, recorded: false })
    const unpaid = checkout(await referenceOf(h), 4500, { payment_status: 'unpaid' })
    expect((await deliver(unpaid)).body).toEqual({ received: true, recorded: false })
    expect((await onlineEntries(h)).length).toBe(0)
  })

  it('answers 503 payments_not_configured where STRIPE_WEBHOOK_SECRET is not set', async () => {
    await withServer({}, async (plain) => {
      const res = await plain.req('POST', '/api/payments/stripe', {
        body: '{}',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      })
      expect([res.status, res.body.code]).toEqual([503, 'payments_not_configured'])
    })
  })
})

describe('unmatched online payments', () => {
  it('keeps a payment naming no household for the treasurer, who assigns it once (201, then 409)', async () => {
    const event = checkout('NOBODY00', 3000)
    expect((await deliver(event)).body).toEqual({ received: true, recorded: true })
    const list = await s.req('GET', '/api/admin/money/unmatched', { cookie: treasurer.cookie })
    const payment = list.body.payments.find((p: any) => p.session_id === event.data.object.id)
    expect(payment).toMatchObject({ amount_cents: 3000, reference: 'NOBODY00', payer_email: 'payer@example.org', currency: 'usd' })
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const assigned = await s.req('POST', `/api/admin/money/unmatched/${payment.id}/assign`, {
      cookie: treasurer.cookie,
      json: { household_id: h },
    })
    expect(assigned.status).toBe(201)
    expect(assigned.body.entry).toMatchObject({ household_id: h, kind: 'payment', amount_cents: 3000, method: 'online' })
    const twice = await s.req('POST', `/api/admin/money/unmatched/${payment.id}/assign`, {
      cookie: treasurer.cookie,
      json: { household_id: h },
    })
    expect([twice.status, twice.body.code]).toEqual([409, 'already_assigned'])
    const after = await s.req('GET', '/api/admin/money/unmatched', { cookie: treasurer.cookie })
    expect(after.body.payments.some((p: any) => p.id === payment.id)).toBe(false)
  })

  it('answers 404 for no such payment, 422 for no such household, 403 for another unit’s household', async () => {
    const event = checkout(null, 1000)
    await deliver(event)
    const { payments } = (await s.req('GET', '/api/admin/money/unmatched', { cookie: treasurer.cookie })).body
    const id = payments.find((p: any) => p.session_id === event.data.object.id).id
    expectDetail(
      await s.req('POST', '/api/admin/money/unmatched/999999/assign', { cookie: treasurer.cookie, json: { household_id: 1 } }),
      404,
    )
    expectDetail(
      await s.req('POST', `/api/admin/money/unmatched/${id}/assign`, { cookie: treasurer.cookie, json: { household_id: 999999 } }),
      422,
    )
    const troop = await addHousehold(s.db, { unit: 'troop', email: null })
    const res = await s.req('POST', `/api/admin/money/unmatched/${id}/assign`, { cookie: treasurer.cookie, json: { household_id: troop } })
    expect([res.status, res.body.code]).toEqual([403, 'unit_out_of_scope'])
  })
})
