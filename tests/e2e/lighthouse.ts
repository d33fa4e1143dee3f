// Lighthouse against the built site in Debian's Chromium, on a phone (Lighthouse's mobile emulation): a server with its
// site and a Chromium per test file. The public and the signed-in pages are audited in two files, so the test line's
// workers run the two halves at once.
import { afterAll, beforeAll } from 'bun:test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { startServerWithSite, type TestServer } from '../helpers.ts'

/**
 * Accessibility, best practices and SEO score the page as loaded, not how it loads. The site's pages are static files
 * on loopback, quiet within a few hundred milliseconds: for those, Lighthouse need not wait its default second at each
 * of four points (the home page: 7.1–8.2 s an audit with the defaults, 3.8–5.0 s with these). Performance keeps the
 * defaults, so a late layout shift is still caught.
 */
const QUIET_SOONER = { pauseAfterFcpMs: 250, pauseAfterLoadMs: 250, networkQuietThresholdMs: 250, cpuQuietThresholdMs: 250 }

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
        onlyCategories: categories,
        output: 'json',
        logLevel: 'error',
        extraHeaders: headers,
        // The picture of the whole page is for reading a report, and scores nothing: about a second of each audit.
        disableFullPageScreenshot: true,
        ...(categories.includes('performance') ? {} : QUIET_SOONER),
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
