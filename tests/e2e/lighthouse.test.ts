// Lighthouse against the built site in Debian's Chromium: every public page scores at least 95 in accessibility,
// best practices and SEO, on a phone (Lighthouse's mobile emulation).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { PUBLIC_PAGES, startServerWithSite, type TestServer } from '../helpers.ts'

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

describe('Lighthouse on the public pages', () => {
  it(
    `scores every public page at least 95 in ${CATEGORIES.join(', ')}`,
    async () => {
      const below: string[] = []
      for (const path of PUBLIC_PAGES) {
        const result = await lighthouse(`${s.url}${path}`, {
          port: chrome.port,
          onlyCategories: CATEGORIES,
          output: 'json',
          logLevel: 'error',
        })
        const { categories, audits } = result!.lhr
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
