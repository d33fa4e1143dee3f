// Browser tests at 375 px for the polish of issue 31: the admin menu is a button, a reset link shows beside its person,
// History fits a phone with times in the site's time zone, the join form takes "K", the calendar and announcement forms
// start from the leader's unit and a week ahead, and the API docs page passes axe.
import { describe, expect, it } from 'bun:test'
import { utcToZoned, zonedToUtc } from '../../server/calendar/zone.ts'
import { instantWords } from '../../server/instant-words.ts'
import { ROLES } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { browserSuite, seriousViolations } from './browser.ts'

const suite = browserSuite()
const ZONE = 'America/Chicago' // the site's default, not the browser's (UTC here)

describe('the admin menu on a phone', () => {
  it('is a bordered button at least 44 px high with an icon, that opens the links', async () => {
    const leader = await suite.s.person(ROLES.packLeader)
    const page = await suite.signedIn(leader.email, '/admin/')
    const menu = page.locator('.admin-nav summary')
    const look = await menu.evaluate((el) => {
      const style = getComputedStyle(el)
      return { border: style.borderTopStyle, height: el.getBoundingClientRect().height, icon: !!el.querySelector('svg') }
    })
    expect(look).toEqual({ border: 'solid', height: expect.any(Number), icon: true })
    expect(look.height).toBeGreaterThanOrEqual(44)
    await menu.click()
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Calendar' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe('the People page', () => {
  it('shows a reset link on the card of the person it is for, and counts "1 active session"', async () => {
    const owner = await suite.s.person({ global_role: 'owner' })
    const member = await suite.s.person({ ...ROLES.member, email: 'reset.me@example.org' })
    await suite.s.signIn(member.email)
    const page = await suite.signedIn(owner.email, '/admin/people/')
    const card = page.locator(`[data-person="${member.id}"]`)
    await card.getByText('1 active session · 0 active keys').waitFor()
    await card.getByRole('button', { name: 'Password reset link' }).click()
    await card.getByRole('status').filter({ hasText: 'Password reset link for reset.me@example.org' }).waitFor()
    expect(await card.locator('code.secret').textContent()).toContain('/reset/')
    expect(await page.locator('#link').isHidden()).toBe(true)
    await page.getByText('No open invites.').waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe('History on a phone', () => {
  it('fits the screen, names the site time zone once, shows times in it and says who was linked to which household', async () => {
    const owner = await suite.s.person({ global_role: 'owner' })
    const parent = await suite.s.person({ ...ROLES.member, email: 'robin.linked@example.org' })
    const household = await addHousehold(suite.s.db, { unit: 'pack', email: null, parent_name: 'Robin Hale' })
    const cookie = await suite.s.signIn(owner.email)
    const res = await suite.s.req('PUT', `/api/admin/roster/households/${household}/people`, { cookie, json: { person_ids: [parent.id] } })
    expect(res.status).toBe(200)
    const entry = await suite.s.lastLog('roster.household_people')
    expect(entry.summary).toBe("linked robin.linked@example.org to Robin Hale's household")

    const page = await suite.signedIn(owner.email, '/admin/history/')
    const row = page.locator('tr', { hasText: 'linked robin.linked@example.org' })
    await row.getByText(instantWords(entry.at, ZONE)).waitFor()
    expect(await page.getByText(`Times in ${ZONE}`).count()).toBe(1)
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375)
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe('forms that start where people are', () => {
  it('the join form takes "K" for the grade', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 375, height: 800 } })
    await page.goto(`${suite.s.url}/join/`)
    await page.getByLabel('Your name (parent or guardian)').fill('Kinder Parent')
    await page.getByLabel('Email').fill('kinder@example.org')
    await page.getByLabel('Grade in school').fill('K')
    expect(await page.getByLabel('Grade in school').getAttribute('inputmode')).toBeNull()
    await page.getByRole('button', { name: 'Send' }).click()
    await page.waitForURL(`${suite.s.url}/join/thanks/`)
    const lead = await suite.s.db
      .selectFrom('leads')
      .select('scout_grade')
      .where('parent_name', '=', 'Kinder Parent')
      .executeTakeFirstOrThrow()
    expect(lead.scout_grade).toBe('K')
    await page.close()
  })

  it("the calendar's event form is for the leader's own unit", async () => {
    const leader = await suite.s.person(ROLES.troopLeader)
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.locator('#event-ready:enabled').waitFor()
    expect(await page.getByLabel('For').inputValue()).toBe('troop')
    await page.getByText('No upcoming events yet.').waitFor() // not a heading over nothing
    await page.close()
  })

  it('the announcement form ends a week from now (in the site time zone) unless changed', async () => {
    const leader = await suite.s.person(ROLES.packLeader)
    const page = await suite.signedIn(leader.email, '/admin/announcements/')
    const until = page.getByLabel('Show until')
    await page.waitForFunction(() => (document.querySelector('[name="ends_at"]') as HTMLInputElement).value !== '')
    const [date, time] = (await until.inputValue()).split('T')
    const weekAhead = Date.now() + 7 * 86_400_000
    expect(Math.abs(zonedToUtc(date, time, ZONE) - weekAhead)).toBeLessThan(2 * 60_000)
    expect(date).toBe(utcToZoned(weekAhead, ZONE).date)
    await page.close()
  })
})

describe('the API docs page', () => {
  it('passes axe with no serious or critical violations, folded and with an area open', async () => {
    const leader = await suite.s.person(ROLES.packLeader)
    const page = await suite.signedIn(leader.email, '/api/docs')
    // The areas folded, then one opened with its routes.
    await page.locator('.opblock-tag', { hasText: 'Health' }).first().waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.locator('.opblock-tag', { hasText: 'Keys' }).first().click()
    await page.locator('.opblock').first().waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
