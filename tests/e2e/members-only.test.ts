// Members-only events in a browser at phone width: a leader marks one in the event form; the public calendar (and its
// feed) leaves it out; the family page lists it and gives the household's private feed link, which serves it.
import { beforeAll, describe, expect, it } from 'bun:test'
import { addDays, today } from '../dates.ts'
import { ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite() // no CalDAV: the site keeps the events
const LEADER = 'akela.members@example.org'
const FAMILY = 'parent.members@example.org'
const SECRET = 'Parents-only planning supper'
const OPEN = 'Family fun run'
const day = addDays(today(), 10)
let uid = ''
beforeAll(async () => {
  await suite.s.person({ ...ROLES.packLeader, email: LEADER })
})

const overflows = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)

describe('members-only events at phone width', () => {
  it('the leader marks an event members-only in the form; the API keeps it so', async () => {
    const page = await suite.signedIn(LEADER, '/admin/calendar/')
    await page.getByLabel('Title').fill(SECRET)
    await page.getByLabel('Who sees it').selectOption('members')
    await page.getByLabel('Date', { exact: true }).fill(day)
    await page.getByRole('button', { name: 'Add event' }).click()
    const card = page.locator('[data-event]', { hasText: SECRET })
    await card.waitFor()
    expect(await card.textContent()).toContain('Members only')
    expect(await seriousViolations(page)).toEqual([])
    expect(await overflows(page)).toBe(false)
    const cookie = await suite.s.signIn(LEADER)
    const events = (await suite.s.req('GET', '/api/admin/calendar', { cookie })).body.events
    const kept = events.find((e: any) => e.title === SECRET)
    expect(kept.visibility).toBe('members')
    uid = kept.uid
    const open = await suite.s.req('POST', '/api/admin/calendar', { cookie, json: { title: OPEN, date: day, unit: 'pack' } })
    expect(open.status).toBe(201)

    // Editing shows the choice as kept.
    await page.reload()
    await page.locator(`[data-event="${uid}"]`).getByRole('button', { name: 'Edit' }).click()
    expect(await page.getByLabel('Who sees it').inputValue()).toBe('members')
  })

  it('the public calendar, its month view and its feed leave it out', async () => {
    await suite.s.site!.build('members-only browser test')
    for (const path of ['/calendar/', '/calendar/pack/month/']) {
      const page = await suite.visit(path)
      const text = await page.locator('body').textContent()
      expect(text).not.toContain(SECRET)
      expect(text).toContain(OPEN)
    }
    const feed = await (await fetch(`${suite.s.url}/calendar.ics`)).text()
    expect(feed).not.toContain(SECRET)
  })

  it('the family page lists it and gives the private feed link, which serves it', async () => {
    await familyAccount(suite.s, { unit: 'pack', email: null, parent_name: 'Morgan Members' }, FAMILY)
    const page = await suite.signedIn(FAMILY, '/family/')
    const part = page.getByRole('region', { name: 'Members-only events' })
    await part.locator(`[data-members-event="${uid}"]`).getByText(SECRET).waitFor()
    expect(await part.getByText(OPEN).count()).toBe(0)
    expect(await part.getByText('no link yet.').isVisible()).toBe(true)
    await part.getByRole('button', { name: 'Get the link' }).click()
    const link = part.getByLabel('Your private calendar link')
    await link.waitFor()
    const url = await link.inputValue()
    expect(url).toMatch(/\/calendar\/household\/[A-Za-z0-9_-]+\.ics$/)
    expect(await part.getByRole('link', { name: 'Subscribe on this phone' }).getAttribute('href')).toBe(url.replace(/^http:/, 'webcal:'))
    expect(await seriousViolations(page)).toEqual([])
    expect(await overflows(page)).toBe(false)
    await screenshot(page, 'family-members-only-phone')

    const feed = await fetch(`${suite.s.url}${new URL(url).pathname}`)
    expect(feed.status).toBe(200)
    const text = await feed.text()
    expect(text).toContain(SECRET)
    expect(text).toContain(OPEN)
    expect(text).not.toContain('Morgan Members')

    // A new link stops the old one.
    await part.getByRole('button', { name: 'Make a new link' }).click()
    await page.waitForFunction(
      (old) => (document.querySelector('[aria-label="Your private calendar link"]') as HTMLInputElement)?.value !== old,
      url,
    )
    expect((await fetch(`${suite.s.url}${new URL(url).pathname}`)).status).toBe(404)
  })
})
