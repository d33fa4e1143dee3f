// The public calendar's month view and subscribe links in Chromium: an agenda of days on a 375 px phone, month grids
// on a laptop, today marked, each event linking to its card in the list view, and no horizontal scrolling.
import { beforeAll, describe, expect, it } from 'bun:test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import type { Page } from 'playwright-core'
import { toICalendar } from '../../server/calendar/event.ts'
import { utcToZoned } from '../../server/calendar/zone.ts'
import { getSetting } from '../../server/settings/registry.ts'
import { addDays, today } from '../dates.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
const PHONE = { width: 375, height: 812 }
const LAPTOP = { width: 1024, height: 800 }
const derby = addDays(today(), 3)
const campout = addDays(today(), 5)
/** The site's today (its time zone) before the build: a build just before midnight may mark either day. */
let days: string[] = []
let timeZone: string

beforeAll(async () => {
  timeZone = await getSetting(suite.s.db, 'site.timezone')
  const events = {
    derby: { title: 'Pinewood derby', unit: 'pack', date: derby, time: '10:00', location: 'School gym' },
    campout: { title: 'Troop campout', unit: 'troop', date: campout, end: addDays(campout, 2) },
    committee: {
      title: 'Committee meeting',
      unit: 'both',
      date: addDays(today(), 2),
      time: '19:00',
      repeat: 'weekly',
      repeat_until: addDays(today(), 30),
    },
  } as const
  const now = new Date().toISOString()
  for (const [uid, e] of Object.entries(events))
    await suite.s.db
      .insertInto('calendar_objects')
      .values({ uid, url: `/site/units/${uid}.ics`, etag: null, ics: toICalendar(uid, e, timeZone), synced_at: now })
      .execute()
  days = [utcToZoned(Date.now(), timeZone).date]
  const build = await suite.s.site!.build('calendar fixtures')
  if (!build.ok) throw new Error(build.error!)
}, 60_000)

const siteToday = () => [...days, utcToZoned(Date.now(), timeZone).date]

async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await suite.browser.newPage({ viewport, bypassCSP: true }) // CSP bypassed only to inject axe-core
  await page.goto(`${suite.s.url}${path}`)
  return page
}

/** The page fits the viewport's width: nothing to scroll sideways. */
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

describe('the month view on a phone (375 px)', () => {
  it('lists the days with events and today as an agenda: event on its day, today marked, no sideways scroll, axe-clean', async () => {
    const page = await open('/calendar/month/', PHONE)
    const day = page.locator(`.agenda li[data-date="${derby}"]`)
    await day.waitFor()
    await day.getByRole('link', { name: '10:00 AM Pinewood derby (Pack)' }).waitFor()
    expect(await page.locator('table.month-grid').first().isVisible()).toBe(false)
    const marked = page.locator('[aria-current="date"]:visible')
    await marked.waitFor()
    expect(await marked.count()).toBe(1)
    expect(siteToday()).toContain((await marked.getAttribute('data-date'))!)
    expect(await marked.textContent()).toContain('Today')
    // An event over three days shows on each of them.
    for (const [i, when] of ['all day', 'continued', 'continued'].entries())
      await page
        .locator(`.agenda li[data-date="${addDays(campout, i)}"]`)
        .getByRole('link', { name: `${when} Troop campout (Troop)` })
        .waitFor()
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width)
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('main a')]
        .filter((a) => a.checkVisibility())
        .map((a) => ({ text: a.textContent!.trim(), box: a.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 24 || box.width < 24)
        .map(({ text }) => text),
    )
    expect(small).toEqual([])
    expect(await page.getByRole('heading', { level: 1, name: 'Events by month' }).count()).toBe(1)
    expect(await page.getByRole('heading', { level: 2 }).count()).toBe(
      await page.getByRole('navigation', { name: 'Months' }).getByRole('link').count(),
    )
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'calendar-month-phone')
    await page.close()
  })

  it("takes a tap on an event to its card in the list view, and moves between list and month, everything and a unit's", async () => {
    const page = await open('/calendar/month/', PHONE)
    await page
      .locator(`.agenda li[data-date="${derby}"]`)
      .getByRole('link', { name: /Pinewood derby/ })
      .click()
    await page.waitForURL((url) => url.pathname === '/calendar/' && url.hash.startsWith('#event-derby-'))
    const target = page.locator(':target')
    await target.waitFor()
    expect(await target.getByRole('heading', { name: 'Pinewood derby' }).count()).toBe(1)

    const views = page.getByRole('navigation', { name: 'Calendar view' })
    const filters = page.getByRole('navigation', { name: 'Filter the calendar' })
    await views.getByRole('link', { name: 'Month' }).click()
    await page.waitForURL(`${suite.s.url}/calendar/month/`)
    await filters.getByRole('link', { name: 'Pack' }).click()
    await page.waitForURL(`${suite.s.url}/calendar/pack/month/`)
    await page.getByRole('heading', { level: 1, name: 'Pack events by month' }).waitFor()
    expect(await page.getByRole('link', { name: /Pinewood derby/ }).count()).toBe(1)
    expect(await page.getByRole('link', { name: /Troop campout/ }).count()).toBe(0)
    expect(
      await page
        .getByRole('link', { name: /Committee meeting/ })
        .first()
        .isVisible(),
    ).toBe(true)
    expect(await views.getByRole('link', { name: 'Month' }).getAttribute('aria-current')).toBe('page')
    await views.getByRole('link', { name: 'List' }).click()
    await page.waitForURL(`${suite.s.url}/calendar/pack/`)
    await page.getByRole('heading', { name: 'Pinewood derby' }).waitFor()
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width)
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })

  it("offers the unit's feed on its page: Subscribe (webcal://), Google Calendar and a download", async () => {
    const page = await open('/units/troop/', PHONE)
    const subscribe = page.getByRole('link', { name: 'Subscribe', exact: true })
    await subscribe.waitFor()
    const webcal = (await subscribe.getAttribute('href'))!
    expect(webcal).toBe('webcal://127.0.0.1:1/calendar/troop.ics')
    const google = new URL((await page.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href'))!)
    expect(google.searchParams.get('cid')).toBe(webcal)
    const download = page.getByRole('link', { name: 'Download (.ics)' })
    expect(await download.getAttribute('href')).toBe('/calendar/troop.ics')
    const feed = await page.request.get(`${suite.s.url}/calendar/troop.ics`)
    expect(feed.headers()['content-type']).toContain('text/calendar')
    expect(await feed.text()).toContain('SUMMARY:Troop campout')
    await page.getByRole('link', { name: 'Month view' }).click()
    await page.waitForURL(`${suite.s.url}/calendar/troop/month/`)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width)
    await page.close()
  })
})

describe('the month view on a laptop', () => {
  it('shows month grids with weekday headers, each event in its day, today marked', async () => {
    const page = await open('/calendar/month/', LAPTOP)
    const grid = page.locator('table.month-grid').first()
    await grid.waitFor()
    expect(await grid.locator('thead th[scope="col"]').allTextContents()).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'])
    await page.locator(`td[data-date="${derby}"]`).getByRole('link', { name: '10:00 AM Pinewood derby (Pack)' }).waitFor()
    const marked = page.locator('td[aria-current="date"]')
    expect(await marked.isVisible()).toBe(true)
    expect(siteToday()).toContain((await marked.getAttribute('data-date'))!)
    expect(await page.locator('.agenda').first().isVisible()).toBe(false)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(LAPTOP.width)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'calendar-month-laptop', { fullPage: false })
    await page.close()
  })
})

describe('Lighthouse on the month view', () => {
  it(
    'scores /calendar/month/ at least 95 in accessibility, best practices and SEO on a phone',
    async () => {
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      })
      try {
        const categories = ['accessibility', 'best-practices', 'seo']
        const result = await lighthouse(`${suite.s.url}/calendar/month/`, {
          port: chrome.port,
          onlyCategories: categories,
          output: 'json',
          logLevel: 'error',
        })
        const { categories: scored, audits } = result!.lhr
        const below = categories
          .filter((id) => (scored[id].score ?? 0) < 0.95)
          .map((id) => `${id}: ${scored[id].auditRefs.filter((r) => r.weight > 0 && (audits[r.id].score ?? 1) < 1).map((r) => r.id)}`)
        expect(below).toEqual([])
      } finally {
        chrome.kill()
      }
    },
    5 * 60_000,
  )
})
