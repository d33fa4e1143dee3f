// Admin pages do not jump as they load: the layout shift Chromium records while each page loads and fills in stays
// under 0.1, on a laptop (1280 px) and on a phone (375 px), with a roster of real size behind it; and a long site
// name never pushes "Sign in" off a 320 px screen.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, ROLES } from '../helpers.ts'
import { familyAccount, seedRoster } from '../households.ts'
import { browserSuite, PHONE } from './browser.ts'

const suite = browserSuite()
const LAPTOP = { width: 1280, height: 800 }
const PAGES = ['/admin/', '/admin/roster/', '/admin/calendar/', '/admin/messages/']

let owner: string
let family: string
beforeAll(async () => {
  const s = suite.s
  await seedRoster(s, 60)
  owner = (await s.person({ global_role: 'owner' })).email
  family = (await familyAccount(s, { unit: 'pack', email: null, scouts: 2 })).email
  const leader = await s.as(ROLES.packLeader)
  for (let i = 0; i < 6; i++) {
    const made = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: `Den meeting ${i + 1}`, date: addDays(today(), 3 + i * 7), unit: 'pack', rsvp: i % 2 === 0 },
    })
    expect(made.status).toBe(201)
  }
})

/** Records every layout shift not caused by input from the first paint on; the sum once the page has settled. */
async function shiftWhileLoading(page: Page, path: string): Promise<number> {
  await page.addInitScript(() => {
    ;(window as any).__shift = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as any[]) if (!entry.hadRecentInput) (window as any).__shift += entry.value
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto(`${suite.s.url}${path}`, { waitUntil: 'networkidle' })
  // Two frames after the network went quiet: whatever the page's scripts drew from their answers has been laid out.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  return page.evaluate(() => (window as any).__shift as number)
}

describe('admin pages load without moving', () => {
  for (const [width, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const)
    it(`on a ${width} (${viewport.width} px): the dashboard, roster, calendar, messages and family pages shift less than 0.1`, async () => {
      const measured: string[] = []
      for (const [email, path] of [...PAGES.map((p) => [owner, p]), [family, '/family/']]) {
        const page = await suite.signedIn(email, undefined, { viewport })
        measured.push(`${path} ${(await shiftWhileLoading(page, path)).toFixed(3)}`)
        await page.close()
      }
      console.log(measured.join('\n'))
      expect(measured.filter((m) => Number(m.split(' ')[1]) >= 0.1)).toEqual([])
    })
})

describe('a long site name on a small phone', () => {
  it('never pushes "Sign in" off a 320 px screen', async () => {
    const name = 'Pack and Troop of the Very Long Named Community Church Hall'.padEnd(60, 'x')
    expect(name).toHaveLength(60)
    const set = await suite.s.req('PUT', '/api/admin/settings/site.name', { token: ADMIN_TOKEN, json: { value: name } })
    expect(set.status).toBe(200)
    const page = await suite.visit('/')
    await page.setViewportSize({ width: 320, height: 640 })
    await page.getByRole('link', { name }).waitFor()
    const signIn = page.getByRole('link', { name: 'Sign in' })
    const box = (await signIn.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(320)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    await page.close()
  })
})
