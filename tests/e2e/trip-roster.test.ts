// Browser test of the printable trip roster: at 375 px what is missing shows first, health forms that are not current
// and scouts without photo consent are flagged, nothing scrolls sideways and axe finds nothing serious; printed, 30
// scouts fit one Letter and one A4 sheet without the admin menu; an event that counts scouts only says so; an unknown
// event says so with a way back.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { addDays, today } from '../dates.ts'
import { PASSWORD, ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { browserSuite, screenshot, seriousViolations, signIn } from './browser.ts'

const suite = browserSuite()
let leader: { email: string; cookie: string }
beforeAll(async () => (leader = await suite.s.as({ ...ROLES.packLeader, email: 'trip.leader@example.org' })))

const soon = (days: number) => addDays(today(), days)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const rosterPage = (uid: string) => `/admin/calendar/roster/?uid=${encodeURIComponent(uid)}`
const DRIVERS = [
  { name: 'Driver there (4 seats)', needed: 4 },
  { name: 'Driver back (4 seats)', needed: 4 },
]
const SURNAMES = [
  'Avery',
  'Brook',
  'Cole',
  'Dale',
  'Ellis',
  'Ford',
  'Grant',
  'Hale',
  'Irwin',
  'Jones',
  'Knox',
  'Lowe',
  'Marsh',
  'Nash',
  'Owens',
]
const FIRST = ['Alex', 'Bea', 'Cal', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jay', 'Kit', 'Lou', 'Max', 'Nia', 'Oli']

async function api(method: string, path: string, cookie: string, json?: unknown) {
  const res = await suite.s.req(method, path, { cookie, json })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body
}

/** A family with an account and two scouts (one when told), phones and an emergency contact unless told otherwise. */
function family(surname: string, n: number, { scouts = 2, emergency = true } = {}) {
  const phone = (k: number) => `555-${k}${String(n).padStart(2, '0')}-01${String(n).padStart(2, '0')}`
  return familyAccount(suite.s, {
    unit: 'pack',
    email: null,
    parent_name: `${FIRST[(n + 7) % 15]}a ${surname}`,
    phone: phone(1),
    second_parent: n % 3 ? null : `Robin ${surname}`,
    emergency_name: emergency ? `Grandma ${surname}` : null,
    emergency_phone: emergency ? phone(9) : null,
    scouts: Array.from({ length: scouts }, (_, i) => ({
      first_name: FIRST[(n + i * 5) % 15],
      last_name: surname,
      den: ['Wolf', 'Bear', 'Webelos'][(n + i) % 3],
    })),
  })
}

const reply = (f: { cookie: string; scouts: number[] }, uid: string, json: Record<string, unknown>) =>
  api('PUT', `${eventPath(uid)}/rsvps`, f.cookie, { adults: 1, scouts: f.scouts.length, scout_ids: f.scouts, ...json })

/** No element the page marks hidden shows, and axe finds nothing serious. */
async function clean(page: Page) {
  const shown = await page.evaluate(() => [...document.querySelectorAll('[hidden]')].filter((el) => el.checkVisibility()).length)
  expect(shown).toBe(0)
  expect(await seriousViolations(page)).toEqual([])
}

/** Pages in a PDF, counted two ways that must agree: the page objects, and the page tree's count. */
function pdfPages(pdf: Uint8Array): number {
  const text = new TextDecoder('latin1').decode(pdf)
  const objects = (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g)].map((m) => Number(m[1]))
  expect(counts.length ? Math.max(...counts) : objects).toBe(objects)
  return objects
}

let campout: string
/**
 * A campout for 30 scouts of 15 households, full: the first household answered before there was a permission slip
 * (not signed), the second signed a slip that changed since (older slip); two have not paid; one scout's form runs
 * out before the trip and one has none; one household has no emergency contact; a waitlisted and a maybe household.
 */
async function seedCampout() {
  const event = {
    title: 'Winter campout',
    date: soon(30),
    time: '17:00',
    location: 'Camp Oak, Site 4',
    unit: 'pack',
    rsvp: true,
  }
  const signup = { per_scout: true, capacity: 30, cost_cents: 3500, slots: DRIVERS }
  const uid = (await api('POST', '/api/admin/calendar', leader.cookie, { ...event, signup })).uid as string
  const families = []
  for (const [n, surname] of SURNAMES.entries()) families.push(await family(surname, n, { emergency: n !== 4 }))
  await reply(families[0], uid, { answer: 'yes' })
  const slip = (text: string) => api('PUT', eventPath(uid), leader.cookie, { ...event, signup: { ...signup, permission_text: text } })
  await slip('My scout may come to the winter campout.')
  await reply(families[1], uid, { answer: 'yes', permission: { signed_name: 'Parent Brook' } })
  await slip('My scout may come to the winter campout and ride with the drivers the pack arranges.')
  for (const [n, f] of families.entries())
    if (n > 1)
      await reply(f, uid, {
        answer: 'yes',
        permission: { signed_name: `Parent ${SURNAMES[n]}` },
        slots: n < 8 ? [{ name: DRIVERS[n % 2].name, count: 1 }] : [],
      })
  for (const [n, f] of families.entries())
    if (n < 13) await api('PUT', `${eventPath(uid)}/rsvps/${f.household}/payment`, leader.cookie, { paid_cents: 7000, method: 'check' })
  for (const [n, f] of families.entries())
    for (const [i, scout] of f.scouts.entries()) {
      if (n === 3 && i === 1) continue // no form at all
      const form_date = n === 2 && i === 0 ? soon(-360) : soon(-30) // the first runs out before the campout
      await api('PUT', `/api/admin/roster/scouts/${scout}/checks/health_form`, leader.cookie, { done: true, form_date })
    }
  // Every family but the Grants agrees to photos of their scouts on the family page.
  for (const [n, f] of families.entries())
    if (n !== 6)
      await api('PATCH', `/api/admin/family/households/${f.household}`, f.cookie, {
        scouts: f.scouts.map((id) => ({ id, photo_consent: true })),
      })
  const late = await family('Quinn', 15, { scouts: 1 })
  const unsure = await family('Reyes', 16, { scouts: 1 })
  const waiting = await reply(late, uid, { answer: 'yes', permission: { signed_name: 'Parent Quinn' } })
  expect(waiting.status).toBe('waitlisted')
  await reply(unsure, uid, { answer: 'maybe' })
  return uid
}

describe('trip roster in a browser', () => {
  beforeAll(async () => (campout = await seedCampout()), 60_000)

  it('at 375 px says what is missing first, flags health forms not current, never scrolls sideways and passes axe', async () => {
    const page = await suite.signedIn(leader.email, rosterPage(campout), { viewport: { width: 375, height: 812 } })
    const missing = page.locator('#missing')
    await missing.filter({ hasText: 'Missing before the trip:' }).waitFor()
    expect(await missing.textContent()).toBe(
      'Missing before the trip: 2 permission slips unsigned, 2 health forms not current, $140.00 unpaid by 2 households, ' +
        'Driver there (4 seats): 1 more needed, Driver back (4 seats): 1 more needed and 1 household without an emergency contact.',
    )
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Trip roster: Winter campout')
    expect(await page.locator('#counts').textContent()).toBe('30 scouts · 15 adults · 15 households · $910.00 of $1,050.00 paid')
    // The missing line comes before everything else of the roster, and on the first screen.
    const top = async (selector: string) => (await page.locator(selector).boundingBox())!.y
    const box = (await missing.boundingBox())!
    expect(box.y + box.height).toBeLessThanOrEqual(812)
    for (const later of ['#counts', '#scouts', '#households']) expect(await top(later)).toBeGreaterThan(box.y)

    expect(await page.locator('#scouts tbody tr').count()).toBe(30)
    const notCurrent = page.locator('#scouts .flag', { hasText: 'NOT CURRENT' })
    expect(await notCurrent.count()).toBe(2)
    expect(await page.locator('#scouts tr', { hasText: 'no form on file' }).locator('.flag').count()).toBe(1)
    expect(await page.locator('#scouts td', { hasText: 'Current until' }).count()).toBe(28)
    const noPhotos = page.locator('#scouts tr', { has: page.locator('.flag', { hasText: 'NO PHOTOS' }) })
    expect(await noPhotos.count()).toBe(2)
    expect(await noPhotos.allTextContents()).toEqual([expect.stringContaining('Grant'), expect.stringContaining('Grant')])
    // The flag is on the phone's screen without scrolling the table sideways.
    const flagBox = (await noPhotos.first().locator('.flag').boundingBox())!
    expect(flagBox.x + flagBox.width).toBeLessThanOrEqual(375)

    const households = page.locator('#households tbody tr')
    expect(await households.count()).toBe(15)
    const avery = households.filter({ hasText: 'Avery' })
    expect(await avery.locator('.flag').allTextContents()).toEqual(['NOT signed'])
    expect(await households.filter({ hasText: 'Brook' }).locator('.flag').allTextContents()).toEqual(['Older slip'])
    expect(await households.filter({ hasText: 'Ellis' }).locator('.flag').allTextContents()).toEqual(['NONE'])
    expect(await households.filter({ hasText: 'Nash' }).textContent()).toContain('$70.00 due')
    expect(await avery.getByRole('link', { name: '555-900-0100' }).getAttribute('href')).toBe('tel:5559000100')
    expect(await page.locator('#maybes').textContent()).toContain('Reyes')
    expect(await page.locator('#waitlist').textContent()).toContain('Quinn')
    expect(await page.locator('#slots').textContent()).toContain('Driver there (4 seats): 3 of 4')
    expect(await page.getByRole('link', { name: 'Download (CSV)' }).getAttribute('href')).toBe(`${eventPath(campout)}/roster/export`)

    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
    await clean(page)
    await screenshot(page, 'trip-roster-phone', { fullPage: false })
    await page.locator('#households').scrollIntoViewIfNeeded()
    await screenshot(page, 'trip-roster-phone-households', { fullPage: false })
    await page.close()
  })

  it('prints 30 scouts on one Letter and one A4 sheet, without the admin menu or buttons, under the real CSP', async () => {
    // Not the suite's page: that one bypasses the CSP for axe, and the print styles must load without it.
    const page = await suite.browser.newPage({ viewport: { width: 755, height: 995 } })
    await signIn(page, suite.s.url, leader.email, PASSWORD)
    await page.goto(`${suite.s.url}${rosterPage(campout)}`)
    await page.locator('#scouts tbody tr').nth(29).waitFor()
    expect(await page.locator('.admin-nav').isVisible()).toBe(true)
    await screenshot(page, 'trip-roster-screen')
    await page.emulateMedia({ media: 'print' })
    for (const chrome of ['.admin-nav', 'header.top', 'footer.bottom', '#print', '#csv'])
      expect(await page.locator(chrome).isVisible(), chrome).toBe(false)
    const type = await page
      .locator('#scouts td')
      .first()
      .evaluate((td) => parseFloat(getComputedStyle(td).fontSize))
    expect(type).toBeGreaterThanOrEqual(11) // 8.25 pt at least
    expect(type).toBeLessThanOrEqual(14) // 10.5 pt at most
    expect(
      await page
        .locator('#scouts tr')
        .first()
        .evaluate((tr) => getComputedStyle(tr).breakInside),
    ).toBe('avoid')
    await screenshot(page, 'trip-roster-print')
    expect(pdfPages(await page.pdf({ format: 'Letter' }))).toBe(1)
    expect(pdfPages(await page.pdf({ format: 'A4' }))).toBe(1)
    await page.close()
  })

  it('an event that counts scouts without names says so, the households carry the counts, and nothing missing is said calmly', async () => {
    const uid = (
      await api('POST', '/api/admin/calendar', leader.cookie, { title: 'Pinewood derby', date: soon(20), unit: 'pack', rsvp: true })
    ).uid
    const erin = await family('East', 20)
    await api('PUT', `${eventPath(uid)}/rsvps`, erin.cookie, { answer: 'yes', adults: 2, scouts: 2 })
    const page = await suite.signedIn(leader.email, rosterPage(uid))
    await page.locator('#missing.calm').filter({ hasText: 'Nothing is missing before the trip.' }).waitFor()
    expect(await page.getByText('This event counts scouts without names').isVisible()).toBe(true)
    expect(await page.locator('#scouts').isVisible()).toBe(false)
    expect(await page.locator('#households tbody tr').textContent()).toContain('2')
    expect(await page.locator('#households th', { hasText: 'Permission' }).count()).toBe(0)
    await clean(page)
    await page.close()
  })

  it('an unknown or missing event says there is no roster, with the way back to the calendar', async () => {
    const page = await suite.signedIn(leader.email, rosterPage('no-such-event@example.org'))
    await page.locator('#no-roster-detail').filter({ hasText: 'There is no trip roster for this event' }).waitFor()
    expect(await page.locator('#no-roster').getByRole('link', { name: 'Back to the calendar' }).getAttribute('href')).toBe(
      '/admin/calendar/',
    )
    expect(await page.locator('#roster').isVisible()).toBe(false)
    await page.goto(`${suite.s.url}/admin/calendar/roster/`)
    await page.locator('#no-roster-detail').filter({ hasText: 'No event was chosen' }).waitFor()
    await clean(page)
    await page.close()
  })
})
