// Browser test of the calendar: an event added in the admin page shows on the public calendar and in /calendar.ics.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import ICAL from 'ical.js'
import type { Browser } from 'playwright-core'
import { PASSWORD, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'
import { type Radicale, startRadicale } from '../radicale.ts'
import { launch, seriousViolations, signIn } from './browser.ts'

let dav: Radicale
let s: TestServer
let browser: Browser
let leader: { email: string }
const year = new Date().getUTCFullYear() + 1

beforeAll(async () => {
  dav = await startRadicale()
  s = await startServerWithSite(dav.env)
  leader = await s.person({ ...ROLES.packLeader, email: 'calendar.leader@example.org' })
  browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await s?.stop()
  await dav?.stop()
})

describe('calendar in a browser', () => {
  it('a leader adds a timed event; it shows on the public calendar (pack filter too) and in a valid /calendar.ics', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 }, bypassCSP: true })
    await signIn(page, s.url, leader.email, PASSWORD)
    await page.goto(`${s.url}/admin/calendar/`)
    await page.getByLabel('Title').fill('Pinewood derby')
    await page.getByLabel('For').selectOption('pack')
    await page.getByLabel('Date', { exact: true }).fill(`${year}-02-14`)
    await page.getByLabel('All day').uncheck()
    await page.getByLabel('Starts').fill('10:00')
    await page.getByLabel('Where').fill('School gym')
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Pinewood derby”' }).waitFor()
    await page.locator('li.card', { hasText: 'Pinewood derby' }).getByRole('button', { name: 'Edit' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])

    await s.site!.settled()
    const visitor = await browser.newPage()
    await visitor.goto(`${s.url}/calendar/`)
    expect(await visitor.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(1)
    expect(await visitor.locator('li.card', { hasText: 'Pinewood derby' }).textContent()).toContain('10:00 AM–11:30 AM')
    await visitor.goto(`${s.url}/calendar/pack/`)
    expect(await visitor.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(1)
    await visitor.goto(`${s.url}/calendar/troop/`)
    expect(await visitor.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(0)
    await visitor.close()

    const feed = await fetch(`${s.url}/calendar.ics`)
    expect(feed.headers.get('content-type')).toContain('text/calendar')
    const cal = new ICAL.Component(ICAL.parse(await feed.text()))
    expect(cal.getFirstPropertyValue('version')).toBe('2.0')
    const derby = cal
      .getAllSubcomponents('vevent')
      .map((v) => new ICAL.Event(v))
      .find((e) => e.summary === 'Pinewood derby')!
    expect(derby.location).toBe('School gym')
    // 10:00 in America/Chicago in February is 16:00 UTC.
    expect(derby.startDate.toJSDate().toISOString()).toBe(`${year}-02-14T16:00:00.000Z`)
    await page.close()
  })
})
