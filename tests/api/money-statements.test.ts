// Statements by mail through a real SMTP relay on loopback: each household of the unit owing at least the amount gets
// its statement — each scout's entries and balance, the Pay links with the amount and reference, the instructions —
// to the parents' addresses only; and the settings that make the Pay links.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectDetail, ROLES, startServer, type TestServer, uniqueEmail, withServer } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
let owner: { cookie: string }
let troopLeader: { cookie: string }
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Troop 45 <troop45@example.org>' })
  owner = await s.as(ROLES.owner)
  troopLeader = await s.as(ROLES.troopLeader)
  await s.confirm(owner.cookie)
  for (const [key, value] of [
    ['payments.paypal_me', 'Troop45'],
    ['payments.venmo', 'troop-45'],
    ['payments.stripe_link', 'https://buy.stripe.com/test_abc123'],
    ['payments.instructions', 'Checks to **Troop 45**, or Zelle treasurer@example.org'],
  ])
    expect((await s.req('PUT', `/api/admin/settings/${key}`, { cookie: owner.cookie, json: { value } })).status).toBe(200)
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const charge = (scoutId: number, cents: number, memo: string) =>
  s.req('POST', '/api/admin/money/entries', {
    cookie: troopLeader.cookie,
    json: { scout_id: scoutId, kind: 'charge', amount_cents: cents, date: '2026-11-20', memo },
  })
const remind = (json: Record<string, unknown>, cookie = troopLeader.cookie) => s.req('POST', '/api/admin/money/reminders', { cookie, json })

describe('POST /api/admin/money/reminders', () => {
  it('mails each household owing at least the amount its statement, with Pay links and instructions, to both parents', async () => {
    const [owes, second, little, paid] = [uniqueEmail('owes'), uniqueEmail('second'), uniqueEmail('little'), uniqueEmail('paid')]
    const big = await addHousehold(s.db, {
      unit: 'troop',
      email: owes,
      second_email: second,
      parent_name: 'Dana Reyes',
      scouts: [{ first_name: 'Mo' }, { first_name: 'Lu' }],
    })
    const small = await addHousehold(s.db, { unit: 'troop', email: little, scouts: [{ first_name: 'Pip' }] })
    const settled = await addHousehold(s.db, { unit: 'troop', email: paid, scouts: [{ first_name: 'Kit' }] })
    const scouts = await s.db
      .selectFrom('scouts')
      .select(['id', 'household_id'])
      .where('household_id', 'in', [big, small, settled])
      .orderBy('id')
      .execute()
    await charge(scouts[0].id, 4500, 'Winter campout')
    await charge(scouts[1].id, 2000, 'Neckerchief')
    await charge(scouts[2].id, 300, 'Patch')
    await charge(scouts[3].id, 1000, 'Dues')
    await s.req('POST', '/api/admin/money/entries', {
      cookie: troopLeader.cookie,
      json: { household_id: settled, kind: 'payment', amount_cents: 1000, date: '2026-11-21', memo: 'Paid', method: 'cash' },
    })
    const res = await remind({ unit: 'troop', min_balance_cents: 1000 })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ queued: 2, households: 1 })
    const mail = await relay.waitFor(owes)
    expect(mail.subject).toContain('$65.00')
    const reference = (await s.db.selectFrom('households').select('payment_reference').where('id', '=', big).executeTakeFirstOrThrow())
      .payment_reference
    expect(mail.text).toContain('Mo: owes $45.00')
    expect(mail.text).toContain('Winter campout: $45.00')
    expect(mail.text).toContain('Lu: owes $20.00')
    expect(mail.text).toContain('https://paypal.me/Troop45/65.00USD')
    expect(mail.text).toContain('https://venmo.com/troop-45?txn=pay&amount=65.00')
    expect(mail.text).toContain(`https://buy.stripe.com/test_abc123?client_reference_id=${reference}`)
    expect(mail.text).toContain('Zelle treasurer@example.org')
    expect(mail.html).toContain('<strong>Troop 45</strong>')
    await relay.waitFor(second)
    const outbox = await s.db.selectFrom('mail_outbox').select(['to_address', 'kind']).where('kind', '=', 'statement').execute()
    expect(outbox.map((m) => m.to_address).sort()).toEqual([owes, second].sort())
    expect((await s.lastLog('money.statements')).summary).toContain('1 household')
  })

  it('needs messages:send besides money:write, keeps a leader to their units, and refuses a bad body', async () => {
    const key = await s.mintKey(troopLeader.cookie, ['money:write'])
    const res = await s.req('POST', '/api/admin/money/reminders', { key: key.key, json: { unit: 'troop' } })
    expectDetail(res, 403)
    const other = await remind({ unit: 'pack' })
    expect([other.status, other.body.code]).toEqual([403, 'unit_out_of_scope'])
    expectDetail(await remind({ unit: 'troop', min_balance_cents: 0 }), 422)
    expectDetail(await remind({}), 422)
  })

  it('answers 409 where mail is not set up', async () => {
    await withServer({}, async (plain) => {
      const admin = await plain.as(ROLES.admin)
      expectDetail(await plain.req('POST', '/api/admin/money/reminders', { cookie: admin.cookie, json: { unit: 'pack' } }), 409)
    })
  })
})

describe('the payment settings', () => {
  it('refuse a PayPal.me name, Venmo username or Stripe link that is not one (422)', async () => {
    for (const [key, value] of [
      ['payments.paypal_me', 'https://paypal.me/x'],
      ['payments.venmo', '@troop45'],
      ['payments.stripe_link', 'https://evil.example/buy.stripe.com/x'],
      ['payments.stripe_link', 'http://buy.stripe.com/abc'],
    ])
      expectDetail(await s.req('PUT', `/api/admin/settings/${key}`, { cookie: owner.cookie, json: { value } }), 422)
  })
})

describe('GET /api/admin/family/money', () => {
  it("shows a family its own statement with Pay links and instructions, not another family's, and nothing when there are no entries", async () => {
    const mine = await familyAccount(s, {
      unit: 'troop',
      email: uniqueEmail('family'),
      parent_name: 'Sam Ortiz',
      scouts: [{ first_name: 'Rae' }],
    })
    const other = await familyAccount(s, { unit: 'troop', email: uniqueEmail('other'), scouts: [{ first_name: 'Zed' }] })
    expect((await s.req('GET', '/api/admin/family/money', { cookie: mine.cookie })).body).toEqual({ statements: [] })
    await charge(mine.scouts[0], 3000, 'Camp fee')
    await charge(other.scouts[0], 9900, 'Other family')
    const res = await s.req('GET', '/api/admin/family/money', { cookie: mine.cookie })
    expect(res.status).toBe(200)
    const [st] = res.body.statements
    expect(res.body.statements.length).toBe(1)
    expect(st).toMatchObject({ household_id: mine.household, parent_name: 'Sam Ortiz', owed_cents: 3000 })
    expect(st.scouts).toEqual([
      expect.objectContaining({
        scout_id: mine.scouts[0],
        name: 'Rae',
        balance_cents: 3000,
        lines: [expect.objectContaining({ memo: 'Camp fee', cents: 3000 })],
      }),
    ])
    expect(st.pay.map((p: any) => p.provider)).toEqual(['paypal', 'venmo', 'stripe'])
    expect(st.pay[2].url).toBe(`https://buy.stripe.com/test_abc123?client_reference_id=${st.payment_reference}`)
    expect(st.instructions).toContain('<strong>Troop 45</strong>')
    await s.req('POST', '/api/admin/money/entries', {
      cookie: troopLeader.cookie,
      json: { household_id: mine.household, kind: 'payment', amount_cents: 3000, date: '2026-11-22', memo: 'Paid', method: 'check' },
    })
    const paid = (await s.req('GET', '/api/admin/family/money', { cookie: mine.cookie })).body.statements[0]
    expect([paid.owed_cents, paid.pay, paid.instructions]).toEqual([0, [], null])
  })
})
