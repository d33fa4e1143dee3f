// Browser test of the family's side of sign-ups at phone width: ticking which scouts come, signing the permission
// slip, taking a slot, the waiting list, a refused reply shown in the API's words, and the balance.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { addDays, today } from '../dates.ts'
import { healthFormUntil } from '../../server/roster/health-form.ts'
import { dayWords } from '../../server/words.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
const PHONE = { width: 375, height: 812 }
const SLIP = 'My scout may attend the winter campout.\nThey may travel with the drivers the pack arranges.'
const EVENT = {
  title: 'Winter campout',
  date: addDays(today(), 20),
  unit: 'pack',
  rsvp: true,
  signup: {
    per_scout: true,
    capacity: 1,
    closes_at: `${addDays(today(), 18)}T21:00:00Z`,
    cost_cents: 3500,
    permission_text: SLIP,
    slots: [{ name: 'Driver (4 seats)', needed: 1 }],
  },
}
let leader: { cookie: string }
let uid: string
beforeAll(async () => {
  leader = await suite.s.as(ROLES.packLeader)
  const created = await suite.s.req('POST', '/api/admin/calendar', { cookie: leader.cookie, json: EVENT })
  expect(created.status).toBe(201)
  uid = created.body.uid
})

const rsvps = () => `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`

/** A parent account linked to a new pack household with its scout Sam and the scouts named in `others`. */
const family = (email: string, ...others: string[]) =>
  familyAccount(suite.s, { unit: 'pack', email: null, scouts: ['Sam', ...others].map((first_name) => ({ first_name })) }, email)

const replyOf = async (household: number) =>
  (await suite.s.req('GET', rsvps(), { cookie: leader.cookie })).body.replies.find((r: any) => r.household_id === household)

const card = (page: Page) => page.locator('[data-event]', { hasText: 'Winter campout' })
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)

describe('the family page with a sign-up', () => {
  let rivera: Awaited<ReturnType<typeof family>>

  it('a family names its scout, signs and takes the slot; the next family waits in line; refusals show in words', async () => {
    rivera = await family('signup.rivera@example.org', 'Ana')
    const park = await family('signup.park@example.org')
    // Park's page is read before the Riveras answer, so it still offers the slot they are about to take.
    const parkPage = await suite.signedIn(park.email, '/family/', { viewport: PHONE })
    await card(parkPage).getByText('1 place left').waitFor()

    const page = await suite.signedIn(rivera.email, '/family/', { viewport: PHONE })
    const event = card(page)
    await event.getByText('1 place left').waitFor()
    expect(await event.locator('[data-facts]').textContent()).toContain('$35.00 per scout')
    expect(await event.locator('[data-facts]').textContent()).toContain('Replies close')
    expect(await event.locator('p.message').innerText()).toBe(SLIP)
    await event.getByText('Driver (4 seats) — 0 of 1 taken').waitFor()
    expect(await event.getByLabel('Scouts and siblings').count()).toBe(0)

    await event.getByRole('radio', { name: 'Coming', exact: true }).check()
    await event.getByRole('checkbox', { name: 'Sam' }).check()
    await event.getByLabel('Driver (4 seats)').fill('1')
    // A yes without a signature is stopped before it is sent: nothing is stored.
    await event.getByRole('button', { name: 'Send reply' }).click()
    await event.getByRole('status').filter({ hasText: 'A yes needs the permission slip signed' }).waitFor()
    expect(await replyOf(rivera.household)).toBeUndefined()

    await event.getByLabel('Type your name to sign').fill('Dana Rivera')
    await event.getByRole('button', { name: 'Send reply' }).click()
    await event.getByRole('status').filter({ hasText: 'Thank you: coming, 1 adult and 1 scout' }).waitFor()
    expect(await event.getByRole('status').textContent()).toContain('You take: Driver (4 seats). You owe $35.00; paid $0.00.')
    await event.getByText('Full: a yes joins the waiting list').waitFor()
    await event.getByText('Driver (4 seats) — 1 of 1 taken').waitFor()
    const kept = await replyOf(rivera.household)
    expect(kept).toMatchObject({
      answer: 'yes',
      status: 'confirmed',
      scouts: 1,
      scout_ids: [rivera.scouts[0]],
      permission: { signed_name: 'Dana Rivera', current: true },
      slots: [{ name: 'Driver (4 seats)', count: 1 }],
      owed_cents: 3500,
      balance_cents: 3500,
    })
    expect(await seriousViolations(page)).toEqual([])
    expect(await noSideScroll(page)).toBe(true)
    await screenshot(page, 'family-signup-phone')

    // Read again, the reply and what it owes show at once; the signature is kept.
    await page.reload()
    await event.getByRole('status').filter({ hasText: 'Your reply: coming, 1 adult and 1 scout' }).waitFor()
    expect(await event.getByRole('status').textContent()).toContain('You owe $35.00; paid $0.00.')
    expect(await event.getByRole('checkbox', { name: 'Sam' }).isChecked()).toBe(true)
    expect(await event.getByRole('checkbox', { name: 'Ana' }).isChecked()).toBe(false)
    await event.getByText('Signed by Dana Rivera').waitFor()
    await page.close()

    // Park, on the page read earlier, asks for the slot now taken: refused (409) in the API's words, nothing stored.
    const other = card(parkPage)
    await other.getByRole('radio', { name: 'Coming', exact: true }).check()
    await other.getByRole('checkbox', { name: 'Sam' }).check()
    await other.getByLabel('Type your name to sign').fill('Lee Park')
    await other.getByLabel('Driver (4 seats)').fill('1')
    await other.getByRole('button', { name: 'Send reply' }).click()
    await other.getByRole('status').filter({ hasText: '“Driver (4 seats)” is filled' }).waitFor()
    expect(await replyOf(park.household)).toBeUndefined()
    await other.getByText('Full: a yes joins the waiting list').waitFor() // the form was brought up to date

    await other.getByLabel('Driver (4 seats)').fill('0')
    await other.getByRole('button', { name: 'Send reply' }).click()
    await other.getByRole('status').filter({ hasText: 'You are on the waiting list' }).waitFor()
    expect(await replyOf(park.household)).toMatchObject({ status: 'waitlisted', scout_ids: [park.scouts[0]], slots: [], owed_cents: 0 })
    expect(await seriousViolations(parkPage)).toEqual([])
    expect(await noSideScroll(parkPage)).toBe(true)
    await parkPage.close()
  })

  it('when the leaders change the slip, the family is asked to sign again; a payment shows in the balance', async () => {
    const changed = { ...EVENT, signup: { ...EVENT.signup, permission_text: `${SLIP}\nWe will also swim.` } }
    expect(
      (await suite.s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, { cookie: leader.cookie, json: changed })).status,
    ).toBe(200)
    const paid = await suite.s.req('PUT', `${rsvps()}/${rivera.household}/payment`, {
      cookie: leader.cookie,
      json: { paid_cents: 3500, method: 'cash' },
    })
    expect(paid.status).toBe(200)

    const page = await suite.signedIn(rivera.email, '/family/', { viewport: PHONE })
    const event = card(page)
    await event.getByText('The slip changed since you signed; please sign again.').waitFor()
    expect(await event.getByRole('status').textContent()).toContain('Paid $35.00: nothing left to pay.')
    await event.getByRole('button', { name: 'Change reply' }).click()
    await event.getByRole('status').filter({ hasText: 'A yes needs the permission slip signed' }).waitFor()
    expect((await replyOf(rivera.household)).permission.current).toBe(false)

    await event.getByLabel('Type your name to sign').fill('Dana Rivera')
    await event.getByRole('button', { name: 'Change reply' }).click()
    await event.getByRole('status').filter({ hasText: 'Thank you: coming, 1 adult and 1 scout' }).waitFor()
    await event.getByText('Signed by Dana Rivera. Leave blank to keep your signature.').waitFor()
    expect(await replyOf(rivera.household)).toMatchObject({ status: 'confirmed', permission: { current: true }, balance_cents: 0 })
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe('health forms on the family page', () => {
  it('each scout shows how their health form stands: current until, ran out on, or not yet', async () => {
    const stone = await family('health.stone@example.org', 'Noa', 'Eli')
    const [sam, noa] = stone.scouts
    const dated = (scout: number, form_date: string) =>
      suite.s.req('PUT', `/api/admin/roster/scouts/${scout}/checks/health_form`, { cookie: leader.cookie, json: { done: true, form_date } })
    const recent = addDays(today(), -30)
    const old = addDays(today(), -400)
    expect((await dated(sam, recent)).status).toBe(200)
    expect((await dated(noa, old)).status).toBe(200)
    const page = await suite.signedIn(stone.email, '/family/', { viewport: PHONE })
    const form = (id: number) => page.locator(`[data-scout="${id}"] [data-check="health_form"]`)
    await form(sam).waitFor()
    expect(await form(sam).textContent()).toBe(`Health form: current until ${dayWords(healthFormUntil(recent), { year: true })}`)
    expect(await form(noa).textContent()).toBe(
      `Health form: ran out on ${dayWords(healthFormUntil(old), { year: true })}; please hand in a new one`,
    )
    expect(await form(stone.scouts[2]).textContent()).toBe('Health form: not yet')
    await page.close()
  })
})
