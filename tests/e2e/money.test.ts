// Money in Chromium at 375 px: a treasurer charges the year's dues on the money page; a family sees what it owes on its
// family page with a Pay by card button carrying its payment reference; Stripe (a stand-in on loopback, signing with
// the stripe package's own test-header helper) reports the payment; the family's balance drops, and the treasurer's
// report and CSV show it; a charge recorded by hand on the family's card is confirmed, a wrong amount refused beside
// its field. Nothing overflows the phone's width and axe finds nothing serious.
import { beforeAll, describe, expect, it } from 'bun:test'
import Stripe from 'stripe'
import type { Page } from 'playwright-core'
import { programYear } from '../../server/roster/queries.ts'
import { PASSWORD } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const SECRET = 'whsec_e2e0123456789abcdefghijklmnop'
const suite = browserSuite(() => ({ STRIPE_WEBHOOK_SECRET: SECRET }))
let treasurer: { email: string }
let parent: { id: number; email: string }
let household: number
beforeAll(async () => {
  const s = suite.s
  treasurer = await s.person({ units: [{ slug: 'troop', role: 'leader', title: 'Treasurer' }], email: 'treasurer@example.org' })
  parent = await s.person({ units: [{ slug: 'troop', role: 'member' }], email: 'parent.ortiz@example.org' })
  household = await addHousehold(s.db, {
    unit: 'troop',
    email: parent.email,
    parent_name: 'Sam Ortiz',
    accounts: [parent.id],
    scouts: [{ first_name: 'Rae', last_name: 'Ortiz' }],
  })
  await addHousehold(s.db, { unit: 'troop', email: null, parent_name: 'Lee Park', scouts: [{ first_name: 'Bo', last_name: 'Park' }] })
  const owner = await s.as({ global_role: 'owner' })
  await s.confirm(owner.cookie)
  await s.req('PUT', '/api/admin/settings/payments.stripe_link', {
    cookie: owner.cookie,
    json: { value: 'https://buy.stripe.com/test_e2e' },
  })
})

const fitsPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

describe('money at 375 px', () => {
  it('a treasurer charges dues, a family pays by card, and the report and CSV show it', async () => {
    const { year } = await programYear(suite.s.db)
    const admin = await suite.signedIn(treasurer.email, '/admin/money/', { viewport: PHONE })
    await admin.getByText('Families owe $0.00 in all').waitFor()
    await admin.getByText("Charge the year's dues").click()
    const dues = admin.locator('#dues')
    await dues.getByLabel('Unit').selectOption('troop')
    await dues.getByLabel('Program year').fill(String(year))
    await dues.getByLabel('Amount per scout, in dollars').fill('75')
    await dues.getByLabel('Due on').fill(`${year}-12-31`)
    await dues.getByRole('button', { name: 'Charge every scout not charged yet' }).click()
    await admin.getByText('Charged 2 scouts $75.00; 0 scouts had been charged before.').waitFor()
    await admin.getByText('Families owe $150.00 in all').waitFor()
    expect(await fitsPhone(admin)).toBe(true)
    expect(await seriousViolations(admin)).toEqual([])
    await screenshot(admin, 'money-accounts-375')

    const family = await suite.signedIn(parent.email, '/family/', { viewport: PHONE, password: PASSWORD })
    await family.getByRole('heading', { name: "Sam Ortiz's household owes $75.00" }).waitFor()
    const pay = family.getByRole('link', { name: 'Pay by card ($75.00)' })
    const reference = new URL((await pay.getAttribute('href'))!).searchParams.get('client_reference_id')!
    expect(reference).toMatch(/^[0-9A-F]{8}$/)
    expect(await fitsPhone(family)).toBe(true)
    expect(await seriousViolations(family)).toEqual([])
    await screenshot(family, 'family-money-375')

    // Stripe's checkout completes: its webhook reaches the service, signed as Stripe signs it.
    const payload = JSON.stringify({
      id: 'evt_e2e_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_e2e_1',
          object: 'checkout.session',
          amount_total: 7500,
          currency: 'usd',
          client_reference_id: reference,
          payment_status: 'paid',
        },
      },
    })
    const post = async (signature: string) =>
      fetch(`${suite.s.url}/api/payments/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      })
    expect(
      (await post(await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: 'whsec_wrong0123456789abcdef' }))).status,
    ).toBe(400)
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: SECRET })
    expect((await post(signature)).status).toBe(200)
    expect(await (await post(signature)).json()).toEqual({ received: true, recorded: false }) // a replay counts once

    await family.reload()
    await family.getByRole('heading', { name: "Sam Ortiz's household all paid" }).waitFor()
    expect(await family.getByRole('link', { name: /Pay by card/ }).count()).toBe(0)

    await admin.reload()
    await admin.getByText('Families owe $75.00 in all').waitFor()
    await admin.getByRole('button', { name: 'Show the report' }).click()
    await admin.getByRole('heading', { name: /^Troop, / }).waitFor()
    await admin.locator('#report-totals').getByText('Paid by online').waitFor()
    expect(await admin.locator('#report-totals').textContent()).toContain('$75.00')
    const csv = await (await admin.request.get(`${suite.s.url}${await admin.locator('#report-csv').getAttribute('href')}`)).text()
    expect(csv).toContain('"Sam Ortiz"')
    expect(csv).toContain('"online","cs_e2e_1","stripe"')
    const entries = await suite.s.db
      .selectFrom('money_entries')
      .select('method')
      .where('household_id', '=', household)
      .where('kind', '=', 'payment')
      .execute()
    expect(entries).toEqual([{ method: 'online' }])
    expect(await seriousViolations(admin)).toEqual([])
    await screenshot(admin, 'money-report-375')

    // A charge by hand on the family's card: an amount that is none is refused beside its field; a good one is said,
    // and the card shows the new balance.
    const card = () => admin.locator(`[data-household="${household}"]`)
    await card().getByText('Record a payment or charge').click()
    await card().getByLabel('What').selectOption('charge')
    await card().getByLabel('Amount, in dollars').fill('12.345')
    await card().getByLabel('Memo').fill('Late form fee')
    await card().getByRole('button', { name: 'Record' }).click()
    await card().getByText('write it in dollars and cents, like 25 or 25.50').waitFor()
    await card().getByLabel('Amount, in dollars').fill('5')
    await card().getByRole('button', { name: 'Record' }).click()
    await admin.getByRole('status').getByText('Recorded charge of $5.00 for Sam Ortiz.').waitFor()
    await card().getByText('owes $5.00').first().waitFor()
    expect(await admin.evaluate(() => document.activeElement?.id)).toBe('status')
    expect(await seriousViolations(admin)).toEqual([])
  })
})
