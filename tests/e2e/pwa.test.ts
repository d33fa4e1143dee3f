// The site as an app on a phone, in Chromium: the two manifests (families start at /family/, leaders at /admin/) with
// the site's name, theme colour and PNG icons; the service worker at /sw.js with scope /; Chromium's own verdict that
// the site is installable; the offline page for a page that was never kept; the "Add to home screen" hint on the family
// page shown once.
import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { getSetting } from '../../server/settings/registry.ts'
import { PASSWORD, ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { browserSuite, PHONE, signIn } from './browser.ts'

const suite = browserSuite()

/**
 * A browser with a profile on disk: Chromium never offers to install from an incognito window, which every context
 * of a launched browser is.
 */
async function withProfile(test: (context: BrowserContext) => Promise<void>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pwa-profile-'))
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'],
    viewport: PHONE,
  })
  try {
    await test(context)
  } finally {
    await context.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Waits until the service worker controls the page (the first visit installs it; it claims the page once active). */
async function controlled(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    if (!navigator.serviceWorker.controller)
      await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }))
    return registration.scope
  })
}

describe('GET /manifest.webmanifest and /admin/manifest.webmanifest', () => {
  it('name the site, start at the family page or the admin section, and list PNG icons of their sizes, one maskable', async () => {
    const s = suite.s
    await s.site!.settled()
    const name = await getSetting(s.db, 'site.name')
    const family = await s.req('GET', '/manifest.webmanifest')
    expect(family.status).toBe(200)
    expect(family.headers.get('content-type')).toContain('application/manifest+json')
    const manifest = JSON.parse(family.text)
    expect(manifest).toMatchObject({
      id: '/family/',
      name,
      start_url: '/family/',
      scope: '/',
      display: 'standalone',
      theme_color: '#0b4f8a',
    })
    const admin = JSON.parse((await s.req('GET', '/admin/manifest.webmanifest')).text)
    expect(admin).toMatchObject({ id: '/admin/', name, start_url: '/admin/', scope: '/' })
    expect(manifest.icons.map((i: any) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
    for (const icon of [...manifest.icons, { src: '/icons/apple-touch-icon.png', sizes: '180x180' }]) {
      const res = await fetch(s.url + icon.src)
      expect(res.headers.get('content-type')).toBe('image/png')
      const { format, width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
      expect(`${format} ${width}x${height}`).toBe(`png ${icon.sizes}`)
    }
  })
})

describe('the service worker', () => {
  it('is served at /sw.js, checked at every visit, and imports the push handlers', async () => {
    const sw = await fetch(`${suite.s.url}/sw.js`)
    expect(sw.status).toBe(200)
    expect(sw.headers.get('content-type')).toContain('javascript')
    expect(sw.headers.get('cache-control')).toBe('no-cache')
    expect(await sw.text()).toContain("importScripts('/sw-push.js')")
    expect((await fetch(`${suite.s.url}/sw-push.js`)).status).toBe(200)
  })

  it('registers with scope /, and Chromium finds the public pages installable as the families’ app', async () => {
    await suite.s.site!.settled()
    await withProfile(async (context) => {
      const page = await context.newPage()
      await page.goto(`${suite.s.url}/`)
      expect(await controlled(page)).toBe(`${suite.s.url}/`)
      const cdp = await context.newCDPSession(page)
      const { url, errors } = await cdp.send('Page.getAppManifest')
      expect({ url, errors }).toEqual({ url: `${suite.s.url}/manifest.webmanifest`, errors: [] })
      expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([])
    })
  })

  it('gives a signed-in leader the app that starts at the admin section, on the admin pages and the public ones', async () => {
    const leader = await suite.s.as({ ...ROLES.packLeader, email: 'pwa.leader@example.org' })
    await withProfile(async (context) => {
      const page = await context.newPage()
      await signIn(page, suite.s.url, leader.email, PASSWORD)
      const cdp = await context.newCDPSession(page)
      expect((await cdp.send('Page.getAppManifest')).url).toBe(`${suite.s.url}/admin/manifest.webmanifest`)
      await controlled(page)
      expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([])
      await page.goto(`${suite.s.url}/units/pack/`)
      await page.waitForFunction(() =>
        document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href.endsWith('/admin/manifest.webmanifest'),
      )
    })
  })

  it('shows the offline page for a page that was never kept, in the site’s own style, when the network is cut', async () => {
    const page = await suite.visit('/')
    await controlled(page)
    await page.context().setOffline(true)
    await page.goto(`${suite.s.url}/units/troop/`)
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('No connection')
    // The site's stylesheet came from the worker's copy: the header has the site's colour, not the browser's default.
    const header = await page.evaluate(() => getComputedStyle(document.querySelector('header.top')!).backgroundColor)
    expect(header).not.toBe('rgba(0, 0, 0, 0)')
    await page.context().setOffline(false)
    await page.context().close()
  })
})

describe('the "Add to home screen" hint', () => {
  it('shows on the family page on a phone until dismissed, and never again after', async () => {
    const family = await familyAccount(suite.s, { unit: 'pack', email: null, scouts: 1 }, 'pwa.family@example.org')
    const page = await suite.signedIn(family.email, '/family/')
    const hint = page.getByRole('complementary', { name: 'Add to home screen' })
    await hint.waitFor()
    expect(await hint.textContent()).toContain('home screen')
    await hint.getByRole('button', { name: 'Dismiss' }).click()
    await hint.waitFor({ state: 'hidden' })
    await page.reload()
    await page.locator('#family h2').first().waitFor()
    expect(await hint.isVisible()).toBe(false)
    await page.context().close()
  })

  it('does not show on a laptop', async () => {
    const family = await familyAccount(suite.s, { unit: 'troop', email: null, scouts: 1 }, 'pwa.laptop@example.org')
    const page = await suite.signedIn(family.email, '/family/', { viewport: { width: 1280, height: 800 } })
    await page.locator('#family h2').first().waitFor()
    expect(await page.locator('#home-hint').isVisible()).toBe(false)
    await page.context().close()
  })
})
