// Lighthouse against the built site in Debian's Chromium, on a phone (Lighthouse's mobile emulation): a server with its
// site and a Chromium per test file. The public and the signed-in pages are audited in two files, so the test line's
// workers run the two halves at once.
import { afterAll, beforeAll } from 'bun:test'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { startServerWithSite, type TestServer } from '../helpers.ts'

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
      }))!.lhr,
  } as LighthouseSuite
  beforeAll(async () => {
    suite.s = await startServerWithSite({})
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    })
  }, 60_000)
  afterAll(async () => {
    chrome?.kill()
    await suite.s?.stop()
  })
  return suite
}
