// Browser test of the leader's side of sign-ups at phone width: the sign-up fields of the event form (sent as the API
// keeps them, closing time in the site's time zone, filled again on edit, gone when replies are not asked), and the
// reply view with places, the waitlist, permission slips, slots and money, where a payment is recorded.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { PASSWORD, ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { addDays, today } from '../dates.ts'
import { browserSuite, screenshot, seriousViolations, signIn } from './browser.ts'

const suite = browserSuite() // no CalDAV: the site keeps the events
let leader: { email: string }
beforeAll(async () => (leader = await suite.s.person({ ...ROLES.packLeader, email: 'signup.leader@example.org' })))

const SITE_ZONE = 'America/Chicago' // the default site.timezone
const eventDate = addDays(today(), 20)
const closesDay = addDays(today(), 15)
const SLIP = 'My scout may attend the winter campout and ride with the drivers the pack arranges.'

/** A phone-sized page (375×812) at the admin calendar, its clock in Tokyo: closing times must follow the site, not it. */
async function phoneCalendar(): Promise<Page> {
  // CSP is bypassed only so axe-core can be injected.
  const page = await suite.browser.newPage({ viewport: { width: 375, height: 812 }, bypassCSP: true, timezoneId: 'Asia/Tokyo' })
  page.on('dialog', (dialog) => dialog.accept())
  await signIn(page, suite.s.url, leader.email, PASSWORD)
  await page.goto(`${suite.s.url}/admin/calendar/`)
  return page
}

const widerThanScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)

/** "-06:00": the site zone's offset on a day, as Intl gives it. */
function offsetOn(date: string, time: string) {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: SITE_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(new Date(`${date}T${time}:00Z`))
    .find((p) => p.type === 'timeZoneName')!.value
  return name.replace('GMT', '')
}

const eventUid = async (cookie: string) =>
  (await suite.s.req('GET', '/api/admin/calendar', { cookie })).body.events.find((e: any) => e.title === 'Winter campout').uid as string
const repliesOf = async (cookie: string, uid: string) =>
  (await suite.s.req('GET', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`, { cookie })).body

describe('sign-ups in the admin calendar at phone width', () => {
  it('a leader sets up places, a closing time, a cost, a permission slip and slots; the API keeps exactly them; an edit shows them', async () => {
    const page = await phoneCalendar()
    const signup = page.getByRole('group', { name: 'Sign-up (all optional)' })
    expect(await signup.isVisible()).toBe(false)
    await page.getByLabel('Title').fill('Winter campout')
    await page.getByLabel('Date', { exact: true }).fill(eventDate)
    await page.getByLabel('Ask families to reply').check()
    await signup.waitFor()
    await signup.getByLabel('Families choose which scouts come').check()
    await signup.getByLabel('Scout places').fill('2')
    await signup.getByLabel('Day', { exact: true }).fill(addDays(eventDate, 1))
    await signup.getByLabel('Time').fill('18:00')
    await signup.getByLabel('Cost per scout in dollars').fill('35')
    await signup.getByLabel('Permission slip').fill(SLIP)
    for (const [n, name, needed] of [
      [1, 'Driver (4 seats)', '2'],
      [2, 'Tent setup', '3'],
      [3, 'Snacks', '1'],
    ] as const) {
      await signup.getByRole('button', { name: 'Add a slot' }).click()
      await signup.getByLabel(`Slot ${n}`, { exact: true }).fill(name)
      await signup.getByLabel(`How many (slot ${n})`).fill(needed)
    }
    await signup.getByRole('button', { name: 'Remove slot 2' }).click()
    expect(await signup.getByLabel('Slot 2', { exact: true }).inputValue()).toBe('Snacks')
    expect(await signup.getByLabel('Slot 3', { exact: true }).count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
    expect(await widerThanScreen(page)).toBe(false)
    await screenshot(page, 'signup-form-phone')

    // The API's refusal (replies closing after the event starts) shows in the form.
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.locator('#event-error').filter({ hasText: 'signup.closes_at: must not be after the event starts' }).waitFor()
    await signup.getByLabel('Day', { exact: true }).fill(closesDay)
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Winter campout”' }).waitFor()
    const card = page.locator('li.card', { hasText: 'Winter campout' })
    await card.getByRole('button', { name: 'Edit' }).waitFor()
    expect(await signup.isVisible()).toBe(false) // the form is empty again

    const cookie = await suite.s.signIn(leader.email)
    const uid = await eventUid(cookie)
    expect(await card.getByRole('link', { name: 'Trip roster' }).getAttribute('href')).toBe(
      `/admin/calendar/roster/?uid=${encodeURIComponent(uid)}`,
    )
    expect((await repliesOf(cookie, uid)).signup).toEqual({
      per_scout: true,
      capacity: 2,
      closes_at: `${closesDay}T18:00:00${offsetOn(closesDay, '23:00')}`,
      cost_cents: 3500,
      permission_text: SLIP,
      slots: [
        { name: 'Driver (4 seats)', needed: 2 },
        { name: 'Snacks', needed: 1 },
      ],
    })

    await card.getByRole('button', { name: 'Edit' }).click()
    await page.getByRole('heading', { name: 'Edit “Winter campout”' }).waitFor()
    expect(await signup.isVisible()).toBe(true)
    expect(await signup.getByLabel('Families choose which scouts come').isChecked()).toBe(true)
    expect(await signup.getByLabel('Scout places').inputValue()).toBe('2')
    expect(await signup.getByLabel('Day', { exact: true }).inputValue()).toBe(closesDay)
    expect(await signup.getByLabel('Time').inputValue()).toBe('18:00')
    expect(await signup.getByLabel('Cost per scout in dollars').inputValue()).toBe('35.00')
    expect(await signup.getByLabel('Permission slip').inputValue()).toBe(SLIP)
    expect(await signup.getByLabel('Slot 1', { exact: true }).inputValue()).toBe('Driver (4 seats)')
    expect(await signup.getByLabel('How many (slot 1)').inputValue()).toBe('2')
    expect(await signup.getByLabel('Slot 2', { exact: true }).inputValue()).toBe('Snacks')
    await page.getByLabel('Ask families to reply').uncheck()
    expect(await signup.isVisible()).toBe(false)
    await page.getByLabel('Ask families to reply').check()
    expect(await signup.getByLabel('Scout places').inputValue()).toBe('2')
    await page.getByRole('button', { name: 'Cancel editing' }).click()
    await page.close()
  })

  it('the reply view shows places, the waitlist, slips, slots and money; a payment recorded there changes the balance', async () => {
    const cookie = await suite.s.signIn(leader.email)
    const uid = await eventUid(cookie)
    const rsvps = `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`
    /** A family account linked to a new household with one scout, both named. */
    async function family(parent: string, scout: string) {
      const { cookie, household, scouts } = await familyAccount(suite.s, {
        unit: 'pack',
        email: null,
        parent_name: parent,
        scouts: [{ first_name: scout }],
      })
      const answer = async (json: Record<string, unknown>) => {
        const res = await suite.s.req('PUT', rsvps, { cookie, json: { adults: 1, scouts: 1, scout_ids: scouts, ...json } })
        expect(res.status).toBe(200)
        return res.body
      }
      return { household, answer }
    }
    const rivera = await family('Dana Rivera', 'Avery')
    const park = await family('Sam Park', 'Blake')
    const lee = await family('Jo Lee', 'Casey')
    const ortiz = await family('Ana Ortiz', 'Drew')
    await rivera.answer({ answer: 'yes', permission: { signed_name: 'Dana Rivera' }, slots: [{ name: 'Driver (4 seats)', count: 1 }] })
    await park.answer({ answer: 'yes', permission: { signed_name: 'Sam Park' }, slots: [{ name: 'Snacks', count: 1 }] })
    expect((await lee.answer({ answer: 'yes', permission: { signed_name: 'Jo Lee' } })).status).toBe('waitlisted')
    await ortiz.answer({ answer: 'maybe' })

    // The slip changes through the form: those who signed the old one are asked again; Park signs the new one.
    const page = await phoneCalendar()
    const card = page.locator('li.card', { hasText: 'Winter campout' })
    await card.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Permission slip').fill(`${SLIP} Bring a sleeping bag.`)
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved “Winter campout”' }).waitFor()
    expect((await repliesOf(cookie, uid)).signup.closes_at).toStartWith(`${closesDay}T18:00:00`) // unchanged by the round trip
    await park.answer({ answer: 'yes', permission: { signed_name: 'Sam Park' } })

    await card.getByRole('button', { name: 'See the replies' }).click()
    const view = card.locator('[data-replies]')
    await view.getByText('2 of 2 places taken · 1 waiting').waitFor()
    expect(await view.getByText('Driver (4 seats): 1 of 2').isVisible()).toBe(true)
    expect(await view.getByText('Snacks: 1 of 1').isVisible()).toBe(true)
    expect(await view.getByText('Owed $70.00 · paid $0.00 · balance $70.00').isVisible()).toBe(true)
    const reply = (household: number) => view.locator(`[data-reply="${household}"]`)
    const fact = (household: number, term: string) =>
      reply(household).locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]')
    expect(await reply(lee.household).locator('.badge').textContent()).toBe('waitlisted')
    expect(await reply(rivera.household).locator('.badge').count()).toBe(0)
    expect(await reply(rivera.household).getByText('Dana Rivera: coming, 1 adult and 1 scout').count()).toBe(1)
    expect(await fact(rivera.household, 'Scouts').textContent()).toBe('Avery')
    expect(await fact(rivera.household, 'Permission').textContent()).toBe('signed an older slip — asked to sign again')
    expect(await fact(park.household, 'Permission').textContent()).toMatch(/^signed by Sam Park on [A-Z][a-z]{2} \d{1,2}, \d{4}, /)
    expect(await fact(ortiz.household, 'Permission').textContent()).toBe('not signed')
    expect(await fact(rivera.household, 'Slots').textContent()).toBe('Driver (4 seats)')
    expect(await fact(rivera.household, 'Money').textContent()).toBe('Owed $35.00 · paid $0.00 · balance $35.00')
    expect(await fact(lee.household, 'Money').textContent()).toBe('Owed $0.00 · paid $0.00 · balance $0.00')

    await reply(rivera.household).getByText('Record payment').click()
    expect(await seriousViolations(page)).toEqual([])
    expect(await widerThanScreen(page)).toBe(false)
    await screenshot(page, 'signup-replies-phone')
    const payment = reply(rivera.household).getByRole('form', { name: 'Record payment: Dana Rivera' })
    await payment.getByLabel('Paid in all, in dollars').fill('20')
    await payment.getByLabel('How').selectOption('check')
    await payment.getByLabel('Note').fill('Check 1042')
    await payment.getByRole('button', { name: 'Save' }).click()
    await card.getByRole('status').filter({ hasText: 'Dana Rivera has paid $20.00 in all; balance $15.00.' }).waitFor()
    await view.getByText('Owed $70.00 · paid $20.00 · balance $50.00').waitFor()
    expect(await fact(rivera.household, 'Money').textContent()).toBe('Owed $35.00 · paid $20.00 · balance $15.00')
    const riveraNow = (await repliesOf(cookie, uid)).replies.find((r: any) => r.household_id === rivera.household)
    expect(riveraNow).toMatchObject({ paid_cents: 2000, balance_cents: 1500 })

    // No longer asking for replies: the sign-up fields go, and none is sent.
    await card.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Ask families to reply').uncheck()
    expect(await page.getByRole('group', { name: 'Sign-up (all optional)' }).isVisible()).toBe(false)
    const sent = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/admin/calendar/${encodeURIComponent(uid)}`))
    await page.getByRole('button', { name: 'Save changes' }).click()
    expect((await sent).postDataJSON()).toMatchObject({ rsvp: false })
    expect((await sent).postDataJSON().signup).toBeUndefined()
    await page.getByRole('status').filter({ hasText: 'Saved “Winter campout”' }).waitFor()
    expect(await repliesOf(cookie, uid)).toMatchObject({ asking: false, signup: null })
    await page.close()
    await suite.s.site!.settled()
  })
})
