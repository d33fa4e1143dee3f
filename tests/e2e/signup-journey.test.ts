// One campout from start to trip, every step in Chromium at phone width (375×812) on the calendar the site keeps
// itself: a leader creates it with places, a cost, a permission slip and two driver slots; two families sign up on their
// family pages (the second is waitlisted); the first drops and the second moves up by itself; the leader records the
// payment and prints the trip roster.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { addDays, today } from '../dates.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
const SLIP = 'My scout may come to the winter campout at Camp Oak and ride with the drivers the pack arranges.'
let leader: { email: string; cookie: string }
beforeAll(async () => {
  const person = await suite.s.person({ ...ROLES.packLeader, email: 'journey.leader@example.org' })
  leader = { email: person.email, cookie: await suite.s.signIn(person.email) }
})

const family = (email: string, parent_name: string) =>
  familyAccount(suite.s, { unit: 'pack', email: null, parent_name, emergency_name: 'Pat', emergency_phone: '555-010-0100' }, email)

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
const campout = (page: Page) => page.locator('[data-event]', { hasText: 'Winter campout' })

/** A family signs up for the campout on its family page: coming, its scout Sam, the slip signed, perhaps a slot. */
async function signUp(email: string, name: string, slot?: string) {
  const page = await suite.signedIn(email, '/family/', { viewport: PHONE })
  const event = campout(page)
  await event.getByRole('radio', { name: 'Coming', exact: true }).check()
  await event.getByRole('checkbox', { name: 'Sam' }).check()
  await event.getByLabel('Type your name to sign').fill(name)
  if (slot) await event.getByLabel(slot).fill('1')
  await event.getByRole('button', { name: 'Send reply' }).click()
  await event.getByRole('status').filter({ hasText: 'Thank you: coming, 1 adult and 1 scout' }).waitFor()
  return page
}

describe('a campout from the leader’s form to the printed trip roster, at phone width', () => {
  it('creates, signs up two families (one waits), moves the second up when the first drops, records a payment, prints', async () => {
    const date = addDays(today(), 21)
    const leaderPage = await suite.signedIn(leader.email, '/admin/calendar/', { viewport: PHONE })
    leaderPage.on('dialog', (dialog) => dialog.accept())
    await leaderPage.getByLabel('Title').fill('Winter campout')
    await leaderPage.getByLabel('For').selectOption('pack')
    await leaderPage.getByLabel('Date', { exact: true }).fill(date)
    await leaderPage.getByLabel('Where').fill('Camp Oak')
    await leaderPage.getByLabel('Ask families to reply').check()
    const signup = leaderPage.getByRole('group', { name: 'Sign-up (all optional)' })
    await signup.getByLabel('Families choose which scouts come').check()
    await signup.getByLabel('Scout places').fill('1')
    await signup.getByLabel('Cost per scout in dollars').fill('35')
    await signup.getByLabel('Permission slip').fill(SLIP)
    for (const [n, name] of [
      [1, 'Driver (4 seats)'],
      [2, 'Driver (6 seats)'],
    ] as const) {
      await signup.getByRole('button', { name: 'Add a slot' }).click()
      await signup.getByLabel(`Slot ${n}`, { exact: true }).fill(name)
      await signup.getByLabel(`How many (slot ${n})`).fill('1')
    }
    await leaderPage.getByRole('button', { name: 'Add event' }).click()
    await leaderPage.getByRole('status').filter({ hasText: 'Added “Winter campout”' }).waitFor()
    const card = leaderPage.locator('li.card', { hasText: 'Winter campout' })
    await card.getByRole('link', { name: 'Trip roster' }).waitFor()
    expect(await noSideScroll(leaderPage)).toBe(true)

    const rivera = await family('journey.rivera@example.org', 'Dana Rivera')
    const park = await family('journey.park@example.org', 'Sam Park')
    const riveraPage = await signUp(rivera.email, 'Dana Rivera', 'Driver (4 seats)')
    await campout(riveraPage).getByText('Full: a yes joins the waiting list').waitFor()
    const parkPage = await signUp(park.email, 'Sam Park')
    await campout(parkPage).getByRole('status').filter({ hasText: 'You are on the waiting list' }).waitFor()
    expect(await seriousViolations(parkPage)).toEqual([])
    expect(await noSideScroll(parkPage)).toBe(true)
    await screenshot(parkPage, 'journey-waiting-phone')

    // The Riveras drop: the Parks move up by themselves, and their page says so when they look again.
    const riveraEvent = campout(riveraPage)
    await riveraEvent.getByRole('radio', { name: 'Not coming', exact: true }).check()
    await riveraEvent.getByRole('button', { name: 'Change reply' }).click()
    await riveraEvent.getByRole('status').filter({ hasText: 'Thank you: not coming' }).waitFor()
    await riveraPage.close()
    await parkPage.reload()
    await campout(parkPage).getByRole('status').filter({ hasText: 'Your reply: coming, 1 adult and 1 scout' }).waitFor()
    expect(await campout(parkPage).getByRole('status').textContent()).not.toContain('waiting list')
    expect(await campout(parkPage).getByRole('status').textContent()).toContain('You owe $35.00; paid $0.00.')
    await parkPage.close()

    // The leader sees the Parks confirmed and records their check.
    await leaderPage.reload()
    await card.getByRole('button', { name: 'See the replies' }).click()
    const view = card.locator('[data-replies]')
    await view.getByText('1 of 1 places taken').waitFor()
    const parkReply = view.locator(`[data-reply="${park.household}"]`)
    expect(await parkReply.locator('.badge').count()).toBe(0)
    await parkReply.getByText('Record payment').click()
    const payment = parkReply.getByRole('form', { name: 'Record payment: Sam Park' })
    await payment.getByLabel('Paid in all, in dollars').fill('35')
    await payment.getByLabel('How').selectOption('check')
    await payment.getByRole('button', { name: 'Save' }).click()
    await card.getByRole('status').filter({ hasText: 'Sam Park has paid $35.00 in all; balance $0.00.' }).waitFor()
    expect(await seriousViolations(leaderPage)).toEqual([])
    expect(await noSideScroll(leaderPage)).toBe(true)

    // The trip roster: the Parks' scout, what is still missing (a health form, the drivers), and the print.
    await card.getByRole('link', { name: 'Trip roster' }).click()
    await leaderPage.getByRole('heading', { name: 'Trip roster: Winter campout' }).waitFor()
    await leaderPage
      .getByText('Missing before the trip: 1 health form not current, Driver (4 seats): 1 more needed and Driver (6 seats): 1 more needed.')
      .waitFor()
    const scouts = leaderPage.locator('#scouts tbody tr')
    expect(await scouts.count()).toBe(1)
    expect(await scouts.first().textContent()).toContain('Sam Park')
    expect(await seriousViolations(leaderPage)).toEqual([])
    expect(await noSideScroll(leaderPage)).toBe(true)
    await screenshot(leaderPage, 'journey-trip-roster-phone')
    const printing = leaderPage.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          window.print = () => resolve(true)
        }),
    )
    await leaderPage.getByRole('button', { name: 'Print' }).click()
    expect(await printing).toBe(true)
    await leaderPage.emulateMedia({ media: 'print' })
    expect(await leaderPage.locator('.admin-nav').isVisible()).toBe(false)
    await leaderPage.close()
  })
})
