// Lighthouse against the built site in Debian's Chromium, on a phone (Lighthouse's mobile emulation): a server with its
// site and a Chromium per test file. The public pages' scores (accessibility, best practices, SEO) and the signed-in
// pages' performance are audited in two files: the test line runs the performance file alone, where no other work
// stretches the page's tasks.
import { afterAll, beforeAll } from 'bun:test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { startServerWithSite, type TestServer } from '../helpers.ts'

/**
 * Accessibility, best practices and SEO score the page as loaded, not how it loads. The site's pages are static files
 * on loopback, quiet within a few hundred milliseconds: for those, Lighthouse need not wait its default second at each
 * of four points (the home page: 7.1–8.2 s an audit with the defaults, 3.8–5.0 s with these).
 */
const QUIET_SOONER = { pauseAfterFcpMs: 250, pauseAfterLoadMs: 250, networkQuietThresholdMs: 250, cpuQuietThresholdMs: 250 }

/**
 * Performance: the signed-in pages fill in from the API once loaded, and a shift that causes must be caught. Half a
 * second of quiet at each point (as `networkidle` in layout-shift.test.ts) sees them settled: the 17 pages scored and
 * shifted the same as with Lighthouse's default second, and the file took 67 s instead of 82.
 */
const QUIET_ONCE_FILLED = { pauseAfterFcpMs: 500, pauseAfterLoadMs: 500, networkQuietThresholdMs: 500, cpuQuietThresholdMs: 500 }

/**
 * The five metrics the performance score is made of (every other performance audit weighs nothing in it): with only
 * these, Lighthouse skips the gatherers of its diagnostics (script coverage, unused CSS, image sizes…), the same score
 * for about a quarter less CPU and time a page.
 */
const SCORED_METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
]

/** What Lighthouse runs for `categories`: the performance score from its five metrics alone, other categories whole. */
function scope(categories: string[]) {
  if (categories.join() === 'performance') return { onlyAudits: SCORED_METRICS, ...QUIET_ONCE_FILLED }
  return { onlyCategories: categories, ...QUIET_SOONER }
}

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']

export interface LighthouseSuite {
  s: TestServer
  /** Lighthouse's report on one page, on a phone, sent with `headers`. */
  audit(path: string, categories: string[], headers?: Record<string, string>): Promise<Report>
}

/** Starts the server and Chromium before the file's tests and stops them after. */
export function lighthouseSuite(): LighthouseSuite {
  let chrome: chromeLauncher.LaunchedChrome
  const suite = {
    audit: async (path: string, categories: string[], headers: Record<string, string> = {}) =>
      (await lighthouse(`${suite.s.url}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        extraHeaders: headers,
        // The picture of the whole page is for reading a report, and scores nothing: about a second of each audit.
        disableFullPageScreenshot: true,
        ...scope(categories),
      }))!.lhr,
  } as LighthouseSuite
  beforeAll(async () => {
    suite.s = await startServerWithSite({})
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    })
  }, 180_000)
  afterAll(async () => {
    chrome?.kill()
    await suite.s?.stop()
  })
  return suite
}
