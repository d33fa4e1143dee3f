// Browser test of the calendar: an event added in the admin page shows on the public calendar and in /calendar.ics.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import ICAL from 'ical.js'
import { ROLES } from '../helpers.ts'
import { type Radicale, startRadicale } from '../radicale.ts'
import { browserSuite, seriousViolations } from './browser.ts'

let dav: Radicale
beforeAll(async () => (dav = await startRadicale()))
const suite = browserSuite(() => dav.env)
let leader: { email: string }
const year = new Date().getUTCFullYear() + 1
beforeAll(async () => (leader = await suite.s.person({ ...ROLES.packLeader, email: 'calendar.leader@example.org' })))
afterAll(() => dav?.stop())

describe('calendar in a browser', () => {
  it('a leader adds a timed event; it shows on the public calendar (pack filter too) and in a valid /calendar.ics', async () => {
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.getByLabel('Title').fill('Pinewood derby')
    await page.getByLabel('For').selectOption('pack')
    await page.getByLabel('Date', { exact: true }).fill(`${year}-02-14`)
    await page.getByLabel('All day').uncheck()
    await page.getByLabel('Starts').fill('10:00')
    await page.getByLabel('Where').fill('School gym')
    // A last day before the first shows beside its field, in the page's words.
    await page.getByLabel('Last day').fill(`${year}-02-13`)
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.locator('.field-error').filter({ hasText: 'Last day must not be before “Date”.' }).waitFor()
    expect(await page.getByLabel('Last day').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('Last day').fill('')
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Pinewood derby”' }).waitFor()
    await page.locator('li.card', { hasText: 'Pinewood derby' }).getByRole('button', { name: 'Edit' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])

    const visitor = await suite.visit('/calendar/')
    expect(await visitor.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(1)
    expect(await visitor.locator('li.card', { hasText: 'Pinewood derby' }).textContent()).toContain('10:00 AM–11:30 AM')
    await visitor.goto(`${suite.s.url}/calendar/pack/`)
    expect(await visitor.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(1)
    await visitor.goto(`${suite.s.url}/calendar/troop/`)
    expect(await visitor.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(0)
    await visitor.close()

    const feed = await fetch(`${suite.s.url}/calendar.ics`)
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
