// A first start on a phone, in Chromium at 375 px: the owner's getting-started list (a step done by doing it, one
// dismissed), a leader's dashboard of the areas they use, a reset link that names its account and leads to a
// prefilled sign-in, a disabled person told so, and the time zone chosen from a list.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { recordBackup } from '../../server/backups/status.ts'
import { ROLES } from '../helpers.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
let owner: { id: number; email: string }
beforeAll(async () => {
  owner = await suite.s.person({ ...ROLES.owner, email: 'chair@example.org' })
})

const step = (page: Page, name: string) => page.locator(`#setup-steps li[data-step="${name}"]`)

describe("the owner's getting-started list", () => {
  it('lists every step with where to go; a step goes done once done, a dismissed one goes away, axe finds nothing', async () => {
    const page = await suite.signedIn(owner.email)
    await step(page, 'units').waitFor()
    expect(await page.locator('#setup-steps li').count()).toBe(8)
    expect(await page.locator('#setup-count').textContent()).toBe('0 of 8 steps done.')
    expect(await step(page, 'units').getByRole('link').getAttribute('href')).toBe('/admin/units/')
    expect(await seriousViolations(page)).toEqual([])

    await page.goto(`${suite.s.url}/admin/units/`)
    for (const [unit, number] of [
      ['Pack', '123'],
      ['Troop', '456'],
    ]) {
      const form = page.locator('form', { has: page.getByRole('button', { name: `Save ${unit.toLowerCase()}` }) })
      await form.getByLabel('Number').fill(number)
      await form.getByRole('button').click()
      await form.getByRole('heading', { name: new RegExp(`${number}$`) }).waitFor()
    }
    expect(await seriousViolations(page)).toEqual([])

    await page.goto(`${suite.s.url}/admin/`)
    await step(page, 'units').getByRole('heading', { name: 'Done: Name and number each unit' }).waitFor()
    expect(await page.locator('#setup-count').textContent()).toBe('1 of 8 steps done.')
    await step(page, 'mail').getByRole('button', { name: 'Dismiss “Set up mail”' }).click()
    await step(page, 'mail').waitFor({ state: 'detached' })
    expect(await page.locator('#setup-count').textContent()).toBe('1 of 7 steps done.')
    await page.reload()
    await step(page, 'units').waitFor()
    expect(await step(page, 'mail').count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'readme/first-start', { fullPage: false })
    await page.close()
  })
})

describe("a leader's dashboard", () => {
  it('shows only the areas they may use, the ones they use first, six as cards and the rest as links; plurals right', async () => {
    const leader = await suite.s.person({ ...ROLES.packLeader, email: 'akela@example.org' })
    const cookie = await suite.s.signIn(leader.email)
    for (const time of ['18:00', '18:30']) await suite.s.req('PATCH', '/api/admin/units/pack', { cookie, json: { meeting_time: time } })
    const page = await suite.signedIn(leader.email)
    await page.locator('#areas li').first().waitFor()
    expect(await page.locator('#setup').isHidden()).toBe(true)
    expect(await page.locator('#areas li h2').allTextContents()).toHaveLength(6)
    expect(await page.locator('#areas li h2').first().textContent()).toBe('Units')
    const links = await page.locator('#more-areas a').allTextContents()
    expect(links.length).toBeGreaterThan(0)
    for (const ownerOnly of ['Settings', 'History'])
      expect([...(await page.locator('#areas h2').allTextContents()), ...links]).not.toContain(ownerOnly)
    await page.locator('#glance').filter({ hasText: 'live announcement' }).waitFor()
    expect(await page.locator('#glance').textContent()).toBe(
      '0 unclaimed leads (0 new this week), 0 claimed by you, 0 failed spreadsheet copies and 0 live announcements.',
    )
    expect(await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3')].filter((el) => !el.textContent?.trim()).length)).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe('a reset link', () => {
  it('names its account, and after the new password the sign-in page says so with the email filled in', async () => {
    const person = await suite.s.person({ ...ROLES.member, email: 'robin.hale@example.org' })
    const ownerCookie = await suite.s.signIn(owner.email)
    const issued = await suite.s.req('POST', `/api/admin/people/${person.id}/reset`, { cookie: ownerCookie, json: {} })
    const page = await suite.browser.newPage({ viewport: { width: 375, height: 800 }, bypassCSP: true })
    await page.goto(`${suite.s.url}/reset/${issued.body.url.split('/reset/')[1]}`)
    await page.getByText('This link sets the password of robin.hale@example.org.').waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('New password').fill('a brand new password')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.waitForURL((url) => url.pathname === '/login/')
    await page.getByText('Password set — sign in with it now.').waitFor()
    expect(await page.getByLabel('Email').inputValue()).toBe('robin.hale@example.org')
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('Password').fill('a brand new password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL((url) => url.pathname === '/family/')

    await page.goto(`${suite.s.url}/reset/no-such-token`)
    await page.getByText('No such reset link').waitFor()
    expect(await page.locator('#reset').isHidden()).toBe(true)
    await page.close()
  })
})

describe('a disabled person signing in', () => {
  it('is told the account is disabled once the password is right, and only then', async () => {
    const person = await suite.s.person({ ...ROLES.member, email: 'gone@example.org' })
    await suite.s.req('POST', `/api/admin/people/${person.id}/disable`, { cookie: await suite.s.signIn(owner.email) })
    const page = await suite.browser.newPage({ viewport: { width: 375, height: 800 }, bypassCSP: true })
    await page.goto(`${suite.s.url}/login/`)
    await page.getByLabel('Email').fill(person.email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor()
    await page.getByLabel('Password').fill(person.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').filter({ hasText: 'This account is disabled' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe('the time zone setting', () => {
  it('is chosen from the list of zones, the current one selected', async () => {
    const page = await suite.signedIn(owner.email, '/admin/settings/')
    const zone = page.getByLabel('Time zone')
    await zone.waitFor()
    expect(await zone.evaluate((el) => el.tagName)).toBe('SELECT')
    expect(await zone.inputValue()).toBe('America/Chicago')
    await zone.focus() // the list fills in then
    expect(await zone.inputValue()).toBe('America/Chicago')
    expect(await zone.locator('option').count()).toBeGreaterThan(100)
    await zone.selectOption('Europe/Berlin')
    await page.locator('#form-site-timezone').getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved “Time zone”.').waitFor()
    expect(
      (await suite.s.db.selectFrom('settings').select('value').where('key', '=', 'site.timezone').executeTakeFirstOrThrow()).value,
    ).toContain('Europe/Berlin')
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})

describe("the owner's dashboard when the backups fail", () => {
  it('shows a card saying so, which opens the history filtered to the backups', async () => {
    await recordBackup(suite.s.db, 'daily', Date.now(), { ok: false, error: 'disk full' })
    const page = await suite.signedIn(owner.email)
    const card = page.locator('#advice li', { has: page.getByRole('heading', { name: 'The backups are failing' }) })
    await card.waitFor()
    await card.getByRole('link', { name: 'See why' }).click()
    await page.waitForURL('**/admin/history/?kind=backups.')
    expect(await page.locator('select[name="kind"]').inputValue()).toBe('backups.')
    await page.locator('#entries td', { hasText: 'disk full' }).first().waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
