// Browser test of the calendar: an event added in the admin page shows on the public calendar and in /calendar.ics;
// without CalDAV the site keeps the events itself; while the CalDAV server does not answer the page shows its last copy.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import ICAL from 'ical.js'
import type { Page } from 'playwright-core'
import { ROLES, startServerWithSite, type TestServer } from '../helpers.ts'
import { type Radicale, startRadicale } from '../radicale.ts'
import { addDays, today, upcoming } from '../dates.ts'
import { browserSuite, PHONE, screenshot, seriousViolations, signedInPage } from './browser.ts'

let dav: Radicale
beforeAll(async () => (dav = await startRadicale()))
const suite = browserSuite(() => dav.env)
let leader: { email: string }
beforeAll(async () => (leader = await suite.s.person({ ...ROLES.packLeader, email: 'calendar.leader@example.org' })))
afterAll(() => dav?.stop())

describe('calendar in a browser', () => {
  it('a leader adds a timed event; it shows on the public calendar (pack filter too) and in a valid /calendar.ics', async () => {
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.getByLabel('Title').fill('Pinewood derby')
    await page.getByLabel('For').selectOption('pack')
    const february = upcoming(2) // winter time in Chicago
    await page.getByLabel('Date', { exact: true }).fill(february)
    await page.getByLabel('All day').uncheck()
    await page.getByLabel('Starts').fill('10:00')
    await page.getByLabel('Where').fill('School gym')
    // A last day before the first shows beside its field, in the page's words.
    await page.getByLabel('Last day').fill(addDays(february, -1))
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
    expect(derby.startDate.toJSDate().toISOString()).toBe(`${february}T16:00:00.000Z`)
    await page.close()
  })

  const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

  it('a leader makes a weekly meeting with an end, then skips one day with one click', async () => {
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.getByLabel('Title').fill('Den meeting')
    await page.getByLabel('Date', { exact: true }).fill(soon(3))
    await page.getByLabel('All day').uncheck()
    await page.getByLabel('Starts').fill('18:30')
    await page.getByLabel('Repeats').selectOption('weekly')
    await page.getByLabel('Repeat until').fill(soon(3 + 21))
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Den meeting”' }).waitFor()
    const cards = page.locator('li.card', { hasText: 'Den meeting' })
    await cards.nth(3).waitFor()
    expect(await cards.count()).toBe(4)
    expect(await cards.first().textContent()).toContain('Repeats every week until')
    await cards.nth(1).getByRole('button', { name: 'Skip this day' }).click()
    await page.getByRole('status').filter({ hasText: 'Skipped' }).waitFor()
    await cards.nth(3).waitFor({ state: 'detached' }) // the list was reloaded without the skipped day
    expect(await cards.count()).toBe(3)
    await page.close()
  })

  it('a leader asks for replies; a family answers on the public calendar and changes it on its family page; the leader sees the headcount', async () => {
    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.getByLabel('Title').fill('Holiday party')
    await page.getByLabel('Date', { exact: true }).fill(soon(12))
    await page.getByLabel('Ask families to reply').check()
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Holiday party”' }).waitFor()

    const admin = await suite.s.as(ROLES.admin)
    const parent = await suite.s.person({ ...ROLES.member, email: 'rsvp.parent@example.org' })
    const household = await suite.s.req('POST', '/api/admin/roster/households', {
      cookie: admin.cookie,
      json: { parent_name: 'Dana Rivera' },
    })
    const linked = await suite.s.req('PUT', `/api/admin/roster/households/${household.body.id}/people`, {
      cookie: admin.cookie,
      json: { person_ids: [parent.id] },
    })
    expect(linked.status).toBe(200)

    await suite.s.site!.settled() // the public page carries the new event
    const family = await suite.signedIn(parent.email, '/calendar/')
    const card = family.locator('li.card', { hasText: 'Holiday party' })
    await card.getByRole('radio', { name: 'Coming', exact: true }).check()
    await card.getByLabel('Adults').fill('2')
    await card.getByLabel('Scouts and siblings').fill('3')
    await card.getByRole('button', { name: 'Send reply' }).click()
    await card.getByRole('status').filter({ hasText: 'Thank you: coming, 2 adults and 3 scouts' }).waitFor()
    expect(await seriousViolations(family)).toEqual([])

    await family.goto(`${suite.s.url}/family/`)
    const asked = family.locator('[data-event]', { hasText: 'Holiday party' })
    expect(await asked.getByRole('radio', { name: 'Coming', exact: true }).isChecked()).toBe(true)
    await asked.getByRole('radio', { name: 'Maybe' }).check()
    await asked.getByLabel('Adults').fill('1')
    await asked.getByRole('button', { name: 'Change reply' }).click()
    await asked.getByRole('status').filter({ hasText: 'Thank you: maybe, 1 adult and 3 scouts' }).waitFor()
    expect(await seriousViolations(family)).toEqual([])
    await screenshot(family, 'family-reply-phone')
    await family.close()

    // A visitor is asked to sign in to reply while replies are open. Once the party has started, the same page (built
    // before) says replies are closed: its script asks the browser's clock, here moved past the start.
    const visitor = await suite.browser.newPage({ viewport: PHONE, bypassCSP: true })
    await visitor.goto(`${suite.s.url}/calendar/`)
    const party = visitor.locator('li.card', { hasText: 'Holiday party' })
    await party.getByRole('link', { name: 'Sign in to reply' }).waitFor()
    await visitor.clock.setFixedTime(Date.now() + 13 * 86_400_000)
    await visitor.reload()
    await party.getByText('Replies are closed.').waitFor()
    expect(await party.getByRole('link', { name: 'Sign in to reply' }).count()).toBe(0)
    await visitor.close()

    await page.reload()
    const event = page.locator('li.card', { hasText: 'Holiday party' })
    expect(await event.locator('[data-headcount]').textContent()).toBe('Replies: 0 coming (0 adults, 0 scouts) · 1 maybe · 0 not coming')
    await event.getByRole('button', { name: 'See the replies' }).click()
    await event.getByText('Dana Rivera: maybe, 1 adult and 3 scouts').waitFor()
    expect(await event.getByRole('link', { name: 'Download the replies (CSV)' }).getAttribute('href')).toEndWith('/rsvps/export')
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'calendar-replies-phone')

    // Deleted, the event's replies stay readable for the leader.
    await event.getByRole('button', { name: 'Delete' }).click()
    const kept = page.locator('[data-deleted-event]', { hasText: 'Holiday party' })
    await kept.waitFor()
    expect(await kept.textContent()).toContain('Its replies are kept for 30 days')
    expect(await kept.locator('[data-headcount]').textContent()).toContain('1 maybe')
    await page.close()
  })
})

/** A phone-sized page (375×812) signed in to `s` as `email`, at the admin calendar. */
const phoneCalendar = (s: TestServer, email: string) =>
  signedInPage(suite.browser, s.url, email, '/admin/calendar/', { viewport: { width: 375, height: 812 } })

const widerThanScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)

describe('admin calendar without CalDAV (the site keeps the events)', () => {
  let s: TestServer
  let leader: { email: string }
  beforeAll(async () => {
    await suite.s.site!.settled() // builds share site/.astro: the other server's rebuild must not run beside this one
    s = await startServerWithSite() // no CALDAV_* variables
    leader = await s.person({ ...ROLES.packLeader, email: 'site.store.leader@example.org' })
  }, 60_000)
  afterAll(() => s?.stop())

  it('at phone width a leader sees the note on connecting CalDAV, adds an event, edits it and deletes it', async () => {
    const page = await phoneCalendar(s, leader.email)
    const note = page.locator('#site-store')
    await note.getByText('Events are kept by this site.').waitFor()
    expect(await page.locator('form#event').isVisible()).toBe(true)
    expect(await page.locator('#unreachable').isVisible()).toBe(false)
    // The setup guide is folded away until asked for, and names the move that takes the events along.
    const guide = page.getByRole('heading', { name: 'Connecting a CalDAV calendar instead' })
    expect(await guide.isVisible()).toBe(false)
    await note.getByText('Connect a CalDAV calendar', { exact: true }).click()
    await guide.waitFor()
    expect(await note.getByText('bun server/cli.ts calendar-move-to-store').isVisible()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    expect(await widerThanScreen(page)).toBe(false)

    const date = addDays(today(), 10)
    await page.getByLabel('Title').fill('Lantern hike')
    await page.getByLabel('Date', { exact: true }).fill(date)
    await page.getByRole('button', { name: 'Add event' }).click()
    await page.getByRole('status').filter({ hasText: 'Added “Lantern hike”' }).waitFor()
    const hike = page.locator('li.card', { hasText: 'Lantern hike' })
    await hike.getByRole('button', { name: 'Edit' }).waitFor()
    expect(await hike.getByRole('button', { name: 'Delete' }).isVisible()).toBe(true)
    await screenshot(page, 'calendar-site-store-phone')

    await hike.getByRole('button', { name: 'Edit' }).click()
    await page.getByRole('heading', { name: 'Edit “Lantern hike”' }).waitFor()
    await page.getByLabel('Title').fill('Owl prowl')
    await page.getByLabel('Where').fill('Nature center')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved “Owl prowl”' }).waitFor()
    const prowl = page.locator('li.card', { hasText: 'Owl prowl' })
    await prowl.getByText('Nature center').waitFor()
    expect(await hike.count()).toBe(0)

    await prowl.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('status').filter({ hasText: 'Deleted “Owl prowl”' }).waitFor()
    await prowl.waitFor({ state: 'detached' })
    const listed = await s.req('GET', '/api/admin/calendar', { cookie: await s.signIn(leader.email) })
    expect(listed.body).toMatchObject({ configured: true, store: 'site', events: [] })
    await page.close()
  })
})

describe('admin calendar while the CalDAV server does not answer', () => {
  let down: Radicale
  let s: TestServer
  let leader: { email: string }
  beforeAll(async () => {
    await suite.s.site!.settled()
    down = await startRadicale()
    s = await startServerWithSite(down.env)
    leader = await s.person({ ...ROLES.troopLeader, email: 'unreachable.leader@example.org' })
  }, 60_000)
  afterAll(async () => {
    await s?.stop()
    await down?.stop()
  })

  /** The parts of the page that change the calendar: none may show while it is read-only. */
  const writeControls = (page: Page) => page.getByRole('button', { name: /^(Add event|Edit|Delete|Skip)/ })

  it('a change tried after the server stopped answering is told plainly, and the page turns read-only', async () => {
    const cookie = await s.signIn(leader.email)
    const made = await s.req('POST', '/api/admin/calendar', {
      cookie,
      json: { title: 'Court of honor', date: addDays(today(), 20), unit: 'troop', rsvp: true },
    })
    expect(made.status).toBe(201)

    const page = await phoneCalendar(s, leader.email)
    const card = page.locator('li.card', { hasText: 'Court of honor' })
    await card.getByRole('button', { name: 'Delete' }).waitFor()
    // With CalDAV configured there is no guide to connecting it.
    expect(await page.locator('#site-store').isVisible()).toBe(false)

    await down.stop()
    await card.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('status').filter({ hasText: 'Nothing was changed' }).waitFor()
    await page.getByRole('status').filter({ hasText: 'The calendar server is not answering' }).waitFor()
    await card.getByRole('button', { name: 'Delete' }).waitFor({ state: 'detached' })
    expect(await card.count()).toBe(1)
    expect(await page.locator('form#event').isVisible()).toBe(false)
    expect(await page.locator('body').innerText()).not.toContain('ECONNREFUSED')
    await page.close()
  })

  it('opened while the server does not answer: a banner with the sentence, the last copy with its replies, no form and no buttons that change it', async () => {
    const page = await phoneCalendar(s, leader.email)
    const banner = page.getByRole('status').filter({ hasText: 'The calendar server is not answering' })
    await banner.waitFor()
    expect(await banner.innerText()).toContain('changes will be possible again when it is.')
    expect(await banner.innerText()).toContain('Showing the events as of ')
    expect(await banner.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T/) // the time in words, not as the API sends it
    expect(await banner.getAttribute('class')).toBe('banner') // a notice, not an error

    const card = page.locator('li.card', { hasText: 'Court of honor' })
    await card.waitFor()
    expect(await page.locator('form#event').isVisible()).toBe(false)
    expect(await writeControls(page).count()).toBe(0)
    expect(await page.locator('#site-store').isVisible()).toBe(false)
    // Replies stay readable meanwhile (kept by the site, not the calendar server).
    await card.getByRole('button', { name: 'See the replies' }).click()
    await card.getByText('No replies yet.').waitFor()

    expect(await page.content()).not.toContain('ECONNREFUSED')
    expect(await page.locator('body').innerText()).not.toContain('ECONNREFUSED')
    expect(await seriousViolations(page)).toEqual([])
    expect(await widerThanScreen(page)).toBe(false)
    await screenshot(page, 'calendar-unreachable-phone')
    await page.close()
  })
})

describe('admin calendar while the CalDAV server refuses the site', () => {
  let s: TestServer
  let leader: { email: string }
  beforeAll(async () => {
    await suite.s.site!.settled()
    s = await startServerWithSite({ ...dav.env, CALDAV_PASSWORD: 'not the password' })
    leader = await s.person({ ...ROLES.packLeader, email: 'refused.leader@example.org' })
  }, 60_000)
  afterAll(() => s?.stop())

  it('says so with the check command as code, and that no copy has been read yet; no form', async () => {
    const page = await phoneCalendar(s, leader.email)
    const banner = page.getByRole('status').filter({ hasText: 'The calendar server refuses the site' })
    await banner.waitFor()
    expect(await banner.locator('code').textContent()).toBe('bun server/cli.ts caldav-check')
    expect(await banner.innerText()).not.toContain('`')
    expect(await banner.innerText()).toContain('No copy has been read yet.')
    expect(await page.locator('form#event').isVisible()).toBe(false)
    expect(await page.locator('body').innerText()).not.toMatch(/HTTP 401|Unauthorized/)
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
