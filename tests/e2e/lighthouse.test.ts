// Lighthouse against the built site in Debian's Chromium: every public page scores at least 95 in accessibility,
// best practices and SEO, and the family page and every admin page load without moving (performance at least
// 95, layout shift under 0.1), on a phone (Lighthouse's mobile emulation).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { PUBLIC_PAGES, startServerWithSite, type TestServer } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'

const CATEGORIES = ['accessibility', 'best-practices', 'seo']

let s: TestServer
let chrome: chromeLauncher.LaunchedChrome
beforeAll(async () => {
  s = await startServerWithSite({})
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
}, 60_000)
afterAll(async () => {
  chrome?.kill()
  await s?.stop()
})

/** Lighthouse's report on one page, on a phone, sent with `headers`. */
const audit = async (path: string, categories: string[], headers: Record<string, string> = {}) =>
  (await lighthouse(`${s.url}${path}`, {
    port: chrome.port,
    onlyCategories: categories,
    output: 'json',
    logLevel: 'error',
    extraHeaders: headers,
  }))!.lhr

describe('Lighthouse on the public pages', () => {
  it(
    `scores every public page at least 95 in ${CATEGORIES.join(', ')}`,
    async () => {
      const below: string[] = []
      for (const path of PUBLIC_PAGES) {
        const { categories, audits } = await audit(path, CATEGORIES)
        for (const id of CATEGORIES) {
          const score = Math.round((categories[id].score ?? 0) * 100)
          if (score >= 95) continue
          const failing = categories[id].auditRefs.filter((ref) => ref.weight > 0 && (audits[ref.id].score ?? 1) < 1).map((ref) => ref.id)
          below.push(`${path} ${id} ${score}: ${failing.join(', ')}`)
        }
      }
      expect(below).toEqual([])
    },
    15 * 60_000,
  )
})

/** Every admin page, as the owner (who sees the most on each). */
const ADMIN_PAGES = [
  '/admin/',
  '/admin/leads/',
  '/admin/pages/',
  '/admin/announcements/',
  '/admin/messages/',
  '/admin/calendar/',
  '/admin/calendar/roster/?uid=none',
  '/admin/posts/',
  '/admin/nearby/',
  '/admin/roster/',
  '/admin/people/',
  '/admin/units/',
  '/admin/keys/',
  '/admin/settings/',
  '/admin/history/',
  '/admin/account/',
]

describe('Lighthouse on the signed-in pages', () => {
  it(
    'scores the family page and every admin page at least 95 in performance, with layout shift under 0.1',
    async () => {
      const family = await familyAccount(s, { unit: 'pack', email: null, scouts: 2 })
      const owner = await s.as({ global_role: 'owner' })
      // Enough people and households that a list that pushes the page down would show.
      for (let i = 0; i < 12; i++) await addHousehold(s.db, { unit: i % 2 ? 'troop' : 'pack', email: `family${i}@example.org` })
      for (let i = 0; i < 6; i++) await s.person({ units: [{ slug: 'pack', role: 'leader' }] })
      const pages: [string, string][] = [['/family/', family.cookie], ...ADMIN_PAGES.map((path): [string, string] => [path, owner.cookie])]
      const measured: string[] = []
      const below: string[] = []
      for (const [path, cookie] of pages) {
        const { categories, audits } = await audit(path, ['performance'], { Cookie: cookie })
        const performance = Math.round((categories.performance.score ?? 0) * 100)
        const shift = audits['cumulative-layout-shift'].numericValue ?? 1
        measured.push(`${path} performance ${performance}, layout shift ${shift.toFixed(3)}`)
        if (performance < 95 || shift >= 0.1) below.push(measured.at(-1)!)
      }
      console.log(measured.join('\n'))
      expect(below).toEqual([])
    },
    8 * 60_000,
  )
})
