// Browser tests of the admin section and public pages in Debian's Chromium, against a real server and site build.
import { beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { PASSWORD, PUBLIC_PAGES, ROLES } from '../helpers.ts'
import { browserSuite, screenshot, seriousViolations, signIn } from './browser.ts'

const suite = browserSuite(undefined, { catalogDir: path.join(import.meta.dir, '..', '..', 'catalog') })
let context: BrowserContext
let page: Page
let admin: { email: string }

beforeAll(async () => {
  admin = await suite.s.person({ ...ROLES.admin, email: 'leader.admin@example.org' })
  // bypassCSP only so axe-core can be injected; the pages themselves run under the real CSP.
  context = await suite.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.s.url })
  page = await context.newPage()
})

describe('admin section in a browser', () => {
  it('signs in through the login page and shows the dashboard for the capabilities held', async () => {
    await signIn(page, suite.s.url, admin.email, PASSWORD)
    await page.getByText(`Signed in as ${admin.email}`).waitFor()
    expect(await page.getByRole('link', { name: 'Catalog' }).count()).toBeGreaterThan(0)
    expect(await page.getByRole('link', { name: 'Settings' }).first().isVisible()).toBe(true)
  })

  it('shows a wrong password plainly on the login page', async () => {
    const other = await context.browser()!.newContext()
    const p = await other.newPage()
    await p.goto(`${suite.s.url}/login/`)
    await p.getByLabel('Email').fill(admin.email)
    await p.getByLabel('Password').fill('not the password')
    await p.getByRole('button', { name: 'Sign in' }).click()
    await p.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor()
    await other.close()
  })

  it('after sign-in goes on to a page of this site named by next, and never to another site', async () => {
    const other = await context.browser()!.newContext()
    const p = await other.newPage()
    for (const [next, lands] of [
      ['/admin/history/', '/admin/history/'],
      ['https://evil.example/', '/admin/'],
      ['//evil.example/', '/admin/'],
      ['/\\evil.example/', '/admin/'],
      ['/.//evil.example', '/admin/'],
      ['/..//evil.example', '/admin/'],
      ['/%2e%2e//evil.example', '/admin/'],
    ]) {
      await p.goto(`${suite.s.url}/login/?next=${encodeURIComponent(next)}`)
      await p.getByLabel('Email').fill(admin.email)
      await p.getByLabel('Password').fill(PASSWORD)
      await p.getByRole('button', { name: 'Sign in' }).click()
      await p.waitForURL(`${suite.s.url}${lands}`)
    }
    await other.close()
  })

  it('mints a key and shows the secret exactly once', async () => {
    await page.goto(`${suite.s.url}/admin/keys/`)
    await page.getByText('Make a new key').click()
    await page.getByLabel('Label').fill('photo uploader')
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.locator('.field-error').filter({ hasText: 'Permissions need at least one box ticked.' }).waitFor()
    // Each permission in words, with the scope name a script writer needs beside it.
    const permission = page.getByLabel('See and claim leads from the join form')
    expect(await page.locator('label', { has: permission }).locator('code').textContent()).toBe('leads:read')
    await permission.check()
    await page.getByRole('button', { name: 'Create key' }).click()
    // A session must confirm it is its person before it mints a key: the page asks for the password and goes on.
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.getByLabel('Your password').fill('wrong password')
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await dialog.getByText('is not your password').waitFor()
    await dialog.getByLabel('Your password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await page
      .locator('#secret-value')
      .filter({ hasText: /^site_/ })
      .waitFor()
    const secret = (await page.locator('#secret-value').textContent())!
    expect(secret).toMatch(/^site_\w{49}$/)
    await page
      .getByRole('cell', { name: /photo uploader/ })
      .first()
      .waitFor()
    await page.reload()
    await page
      .getByRole('cell', { name: /photo uploader/ })
      .first()
      .waitFor()
    expect(await page.content()).not.toContain(secret)
    expect(await page.locator('#secret').isHidden()).toBe(true)
  })

  it('sends a form pressed before its page is ready once it is, never natively with its fields in the address', async () => {
    // The page's script takes its forms once it knows who is signed in: that answer is held until the button is pressed.
    let answer = () => {}
    const held = new Promise<void>((resolve) => (answer = resolve))
    const whoami = (url: URL) => url.pathname === '/api/admin/whoami'
    await page.route(whoami, async (route) => {
      await held
      await route.continue()
    })
    const navigations: string[] = []
    const seen = (frame: { url(): string }) => navigations.push(frame.url())
    page.on('framenavigated', seen)
    await page.goto(`${suite.s.url}/admin/keys/`)
    await page.getByText('Make a new key').click()
    await page.getByLabel('Label').fill('early key')
    await page.getByRole('button', { name: 'Create key' }).click()
    answer()
    await page.locator('.field-error').filter({ hasText: 'Permissions need at least one box ticked.' }).waitFor()
    expect(navigations).toEqual([`${suite.s.url}/admin/keys/`])
    page.off('framenavigated', seen)
    await page.unroute(whoami)
  })

  it('shows the validation error for a bad setting and saves a good one', async () => {
    await page.goto(`${suite.s.url}/admin/settings/`)
    const field = page.getByLabel('Announcements shown at once')
    await field.fill('99')
    await page.locator('form[data-key="announcements.live_cap"]').getByRole('button', { name: 'Save' }).click()
    await page.locator('.field-error').filter({ hasText: 'Announcements shown at once must be a whole number from 1 to 20.' }).waitFor()
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    await field.fill('5')
    await page.locator('form[data-key="announcements.live_cap"]').getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved “Announcements shown at once”' }).waitFor()
    expect(await page.locator('.field-error').count()).toBe(0)
    // Raw setting keys are not what a volunteer reads.
    expect(await page.locator('#content').innerText()).not.toContain('announcements.live_cap')
  })

  it('shows both writes in history', async () => {
    await page.goto(`${suite.s.url}/admin/history/`)
    await page.getByRole('cell', { name: 'API key made' }).first().waitFor()
    await page.getByRole('cell', { name: 'Setting changed' }).first().waitFor()
    await page.getByLabel('What').selectOption({ label: 'API keys' })
    await page.getByRole('button', { name: 'Show' }).click()
    await page.waitForFunction(() => ![...document.querySelectorAll('#entries td')].some((td) => td.textContent === 'Setting changed'))
    expect(await page.getByRole('cell', { name: 'API key made' }).count()).toBe(1)
    // Entries read as words: no dotted kinds, no #ids, no ISO times.
    const text = await page.locator('#entries').innerText()
    expect(text).not.toMatch(/keys\.mint|#\d|\d{4}-\d{2}-\d{2}T/)
  })

  it('changes a unit meeting time in the admin form and the public page shows it after regeneration', async () => {
    await page.goto(`${suite.s.url}/admin/units/`)
    const troop = page.getByRole('form', { name: /Troop/ })
    await troop.getByLabel('Meeting day').selectOption('wednesday')
    await troop.getByLabel('Meeting time').fill('19:40')
    await troop.getByRole('button', { name: 'Save troop' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved the troop' }).waitFor()
    const visitor = await suite.visit('/units/troop/')
    expect(await visitor.locator('[data-meeting="troop"]').textContent()).toContain('Wednesdays at 7:40 PM')
    await visitor.close()
  })

  it('has no serious or critical accessibility violations, no visible hidden element and no overflow on any page at phone and laptop width; saves screenshots', async () => {
    const publicPages = [...PUBLIC_PAGES, '/setup/x', '/invite/x', '/reset/x', '/reply/x', '/no-such-page', '/family/']
    const adminPages = [
      '/admin/',
      '/admin/leads/',
      '/admin/announcements/',
      '/admin/nearby/',
      '/admin/keys/',
      '/admin/settings/',
      '/admin/history/',
      '/admin/units/',
      '/admin/people/',
      '/admin/roster/',
      '/admin/calendar/',
      '/admin/posts/',
      '/admin/account/',
    ]
    const problems: string[] = []
    const scriptErrors = (error: Error) => problems.push(`${page.url()}: script error ${error.message}`)
    page.on('pageerror', scriptErrors)
    for (const path of [...publicPages, ...adminPages]) {
      for (const [label, width] of [
        ['phone', 375],
        ['laptop', 1280],
      ] as const) {
        await page.setViewportSize({ width, height: 800 })
        await page.goto(`${suite.s.url}${path}`)
        await page.waitForLoadState('networkidle')
        problems.push(...(await seriousViolations(page)).map((v) => `${path} (${label}): ${v}`))
        const shown = await page.evaluate(() => [...document.querySelectorAll('[hidden]')].filter((el) => el.checkVisibility()).length)
        if (shown) problems.push(`${path} (${label}): ${shown} elements marked hidden are visible`)
        if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1))
          problems.push(`${path} (${label}): wider than the screen`)
        if (adminPages.includes(path)) await screenshot(page, `${path.replaceAll('/', '_').replace(/^_|_$/g, '') || 'home'}-${label}`)
      }
    }
    page.off('pageerror', scriptErrors)
    expect(problems).toEqual([])
  }, 240_000)

  it('without CalDAV the calendar page offers the event form (the site keeps the events) and, folded away, how to connect CalDAV instead', async () => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(`${suite.s.url}/admin/calendar/`)
    await page.getByText('Events are kept by this site.').waitFor()
    expect(await page.locator('form#event').isVisible()).toBe(true)
    await page.locator('#site-store summary').click()
    await page.getByRole('heading', { name: 'Connecting a CalDAV calendar instead' }).waitFor()
    for (const text of ['CALDAV_URL', 'Nextcloud', 'Fastmail', 'iCloud', 'Radicale', 'caldav-check', 'calendar-move-to-store'])
      expect(await page.getByText(text).first().isVisible(), text).toBe(true)
  })

  it('is usable with the keyboard: the skip link and form controls take focus in order', async () => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(`${suite.s.url}/login/`)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await page.getByLabel('Email').focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('password')
  })
})

describe('API docs page', () => {
  it('renders the document it is served with, offline: nothing is fetched from another host, no script error', async () => {
    const docs = await context.newPage()
    const elsewhere: string[] = []
    const errors: string[] = []
    await docs.route('**/*', (route) => {
      const url = new URL(route.request().url())
      if (url.hostname === '127.0.0.1') return route.continue()
      elsewhere.push(url.href)
      return route.abort()
    })
    docs.on('pageerror', (error) => errors.push(error.message))
    docs.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
    await docs.goto(`${suite.s.url}/api/docs`)
    // Every area is listed, folded; opening one shows its routes.
    for (const area of ['Identity', 'Account', 'Keys', 'Roster', 'Calendar', 'Catalog', 'Health'])
      await docs.locator('.opblock-tag', { hasText: area }).first().waitFor()
    await docs.locator('.opblock-tag', { hasText: 'Keys' }).first().click()
    await docs.getByText('Mint a key').first().waitFor()
    expect(await docs.getByText(/could not be loaded/).count()).toBe(0)
    expect(elsewhere).toEqual([])
    expect(errors).toEqual([])
    await docs.close()
  })
})

describe('public catalog page', () => {
  it('shows each season grouped by row and sprite, with status and game mode', async () => {
    const visitor = await suite.browser.newPage()
    await visitor.goto(`${suite.s.url}/catalog/`)
    await visitor.getByRole('link', { name: 'Season c6s3' }).click()
    await visitor.getByRole('heading', { name: 'Season c6s3' }).waitFor()
    await visitor.getByRole('heading', { name: 'Speedway' }).first().waitFor()
    const row = visitor.getByRole('row', { name: /Turbo Beetle Chrome/ })
    expect(await row.textContent()).toContain('racing')
    expect(await row.textContent()).toContain('released')
    await visitor.close()
  })
})
