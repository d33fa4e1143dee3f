// Browser fixtures: a server with its site per test file and Debian's Chromium per worker, signed-in pages, axe
// scans and screenshots.
import { afterAll, beforeAll } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { freePort, PASSWORD, startServerWithSite, type TestServer } from '../helpers.ts'

const AXE_SOURCE = readFileSync(path.join(import.meta.dir, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8')
export const SCREENSHOTS = path.join(import.meta.dir, '..', '..', 'test-results', 'screenshots')

/**
 * Debian's Chromium headless shell: the same Blink as the browser without the browser's own interface, which is what
 * Playwright itself runs headless; on the test line a page, its axe scan and a screenshot take about a fifth less CPU.
 * Lighthouse, the installable app and notifications (the shell has no Push API) need the whole browser (CHROMIUM_PATH).
 */
export const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell'

/**
 * The worker's Chromium of each kind. A test worker runs its files one after another and keeps its modules between
 * them (`--no-isolate`), so its files share one Chromium, each in browser contexts of its own that it closes when it
 * ends (each launch cost about 1.2 CPU-s). Playwright closes it when the worker exits.
 */
const browsers = new Map<boolean, Browser>()

async function sharedBrowser(wholeBrowser: boolean): Promise<Browser> {
  const open = browsers.get(wholeBrowser)
  if (open?.isConnected()) return open
  const browser = await launch({ wholeBrowser })
  browsers.set(wholeBrowser, browser)
  return browser
}

function launch({ wholeBrowser = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: wholeBrowser ? (process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') : HEADLESS_SHELL,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

export async function signIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/login/`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/' || url.pathname === '/family/')
}

/**
 * axe-core served on loopback, for the pages to load as a script: a page then keeps it in its caches from one scan to
 * the next, where injected as text each scan sent and compiled its 550 KB again (about 0.17 CPU-s a scan).
 */
let axeServer: ReturnType<typeof Bun.serve> | undefined
function axeUrl(): string {
  axeServer ??= Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(AXE_SOURCE, { headers: { 'content-type': 'text/javascript', 'cache-control': 'max-age=3600' } }),
  })
  axeServer.unref() // the worker exits when its files are done, this server or not
  return `http://127.0.0.1:${axeServer.port}/axe.min.js`
}

/** Serious and critical axe-core violations on the current page (the context must bypass CSP to load axe). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A page whose context is offline cannot load it: then it goes as text.
  await page.addScriptTag({ url: axeUrl() }).catch(() => page.addScriptTag({ content: AXE_SOURCE }))
  const results: any = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }))
  return results.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`)
}

export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  const file = path.join(SCREENSHOTS, `${name}.png`)
  mkdirSync(path.dirname(file), { recursive: true })
  await page.screenshot({ path: file, fullPage })
}

/**
 * The natural width of the image `img` shows, once the browser has finished loading it (0 when it failed to load). A
 * card can show before its image has arrived, the more so on a busy machine: reading `naturalWidth` then reads 0.
 */
export async function loadedWidth(img: Locator): Promise<number> {
  const handle = await img.elementHandle()
  await img.page().waitForFunction((el) => (el as HTMLImageElement).complete, handle)
  return handle!.evaluate((el) => (el as HTMLImageElement).naturalWidth)
}

export const PHONE = { width: 375, height: 800 }

/**
 * A new page of `browser` signed in to the server at `base` as `email` (phone-sized unless told), at `path` when given,
 * else where their pages start. Confirmation dialogs are accepted; CSP is bypassed only so axe-core can be loaded.
 * The login page itself is tried where it is the point (admin.test.ts, the offline tests): here the session comes from
 * the same POST /login in JSON, its cookie kept by the page's context, which spares two page loads a sign-in.
 */
export async function signedInPage(
  browser: Browser,
  base: string,
  email: string,
  path?: string,
  { password = PASSWORD, viewport = PHONE } = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport, bypassCSP: true })
  page.on('dialog', (dialog) => dialog.accept())
  const answer = await page.request.post(`${base}/login`, { data: { email, password } })
  if (answer.status() !== 200) throw new Error(`sign-in failed: ${answer.status()} ${await answer.text()}`)
  const { start } = await answer.json()
  await page.goto(`${base}${path ?? start}`)
  return page
}

export interface BrowserSuite {
  s: TestServer
  browser: Browser
  /** A new page signed in to the file's server as `email` (signedInPage). */
  signedIn(email: string, path?: string, options?: { password?: string; viewport?: typeof PHONE }): Promise<Page>
  /** Once the site has been rebuilt after the writes so far, a visitor's page at `path`. */
  visit(path: string): Promise<Page>
}

/**
 * A server with its site built, and Chromium, for the tests of one file: started before them (with the
 * variables `vars` gives then), stopped after them.
 */
export function browserSuite(
  vars: () => Record<string, string> = () => ({}),
  options: { catalogDir?: string; localhost?: boolean; wholeBrowser?: boolean } = {},
): BrowserSuite {
  const suite = {
    signedIn: (email, path, options) => signedInPage(suite.browser, suite.s.url, email, path, options),
    async visit(path) {
      await suite.s.site!.settled()
      const page = await suite.browser.newPage()
      await page.goto(`${suite.s.url}${path}`)
      return page
    },
  } as BrowserSuite
  beforeAll(async () => {
    // On localhost the site's address must be known before it starts: passkeys are bound to it.
    const port = options.localhost ? await freePort() : 0
    const address: Record<string, string> = options.localhost ? { PORT: String(port), PUBLIC_BASE_URL: `http://localhost:${port}` } : {}
    suite.s = await startServerWithSite({ ...vars(), ...address }, options)
    suite.browser = await sharedBrowser(options.wholeBrowser ?? false)
    // A first site build of new content, with every core busy, has taken over a minute.
  }, 180_000)
  afterAll(async () => {
    await Promise.all(suite.browser?.contexts().map((context) => context.close()) ?? [])
    await suite.s?.stop()
  })
  return suite
}
