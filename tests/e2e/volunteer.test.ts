// A volunteer's evening on a phone, in Chromium at 375 px: leads to the roster, the roster itself, family accounts,
// what each person is shown, signing in and out, the nearby directory, the menus and the join form's email rule.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { EMAIL_PATTERN } from '../../server/formats.ts'
import { healthFormUntil } from '../../server/roster/health-form.ts'
import { dayWords } from '../../server/words.ts'
import { addDays, today } from '../dates.ts'
import { ADMIN_TOKEN, ROLES } from '../helpers.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
let leader: { id: number; email: string }
let parent: { id: number; email: string }
beforeAll(async () => {
  leader = await suite.s.person({ ...ROLES.packLeader, email: 'akela@example.org' })
  parent = await suite.s.person({ ...ROLES.member, email: 'sam.rivera@example.org' })
})

/** A lead as the join form leaves it (written directly: the form itself is slowed down after a few sends). */
async function lead(n: number) {
  await suite.s.db
    .insertInto('leads')
    .values({
      created_at: new Date(Date.now() - (100 - n) * 60_000).toISOString(),
      parent_name: `Parent ${n}`,
      email: `parent${n}@example.org`,
      phone: `555-010-${String(n).padStart(4, '0')}`,
      scout_name: null,
      scout_grade: null,
      unit: 'pack',
      message: null,
      claimed_by: null,
      claimed_at: null,
    })
    .execute()
}

/** No element the page marks hidden is visible, and axe finds nothing serious, with the page's real data on it. */
async function hiddenStaysHidden(page: Page) {
  const shown = await page.evaluate(() =>
    [...document.querySelectorAll('[hidden]')].filter((el) => el.checkVisibility()).map((el) => el.outerHTML.slice(0, 80)),
  )
  expect(shown).toEqual([])
  expect(await seriousViolations(page)).toEqual([])
}

describe('leads to the roster', () => {
  it('pages through older leads without repeating any, with mail and phone links, and says no spreadsheet is set up', async () => {
    for (let n = 1; n <= 55; n++) await lead(n)
    const page = await suite.signedIn(leader.email, '/admin/leads/')
    await page.locator('li.card').nth(49).waitFor()
    expect(await page.locator('li.card').count()).toBe(50)
    await hiddenStaysHidden(page)
    await page.getByRole('button', { name: 'Older leads' }).click()
    await page.locator('li.card').nth(54).waitFor()
    const ids = await page.locator('li.card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.lead))
    expect(ids).toHaveLength(55)
    expect(new Set(ids).size).toBe(55)
    expect(await page.getByRole('button', { name: 'Older leads' }).isVisible()).toBe(false)
    const card = page.locator('li.card', { hasText: 'Parent 55' })
    expect(await card.getByRole('link', { name: 'parent55@example.org' }).getAttribute('href')).toBe('mailto:parent55@example.org')
    expect(await card.getByRole('link', { name: '555-010-0055' }).getAttribute('href')).toBe('tel:5550100055')
    await page.getByText('No spreadsheet is set up').waitFor()
    expect(await page.getByRole('button', { name: 'Retry failed copies' }).isVisible()).toBe(false)
    await page.close()
  })

  it('claims a lead and adds it to the roster in one click; the card then links to the household', async () => {
    const page = await suite.signedIn(leader.email, '/admin/leads/')
    const card = page.locator('li.card', { hasText: 'Parent 54' })
    expect(await card.getByRole('button', { name: 'Add to roster' }).count()).toBe(0)
    await card.getByRole('button', { name: 'Claim' }).click()
    await page.getByRole('status').filter({ hasText: 'Claimed Parent 54' }).waitFor()
    await page.locator('li.card', { hasText: 'Parent 54' }).getByRole('button', { name: 'Add to roster' }).click()
    await page.getByRole('status').filter({ hasText: "Added Parent 54's household to the roster" }).waitFor()
    await page.locator('li.card', { hasText: 'Parent 54' }).getByRole('link', { name: 'On the roster' }).click()
    await page.waitForURL(/\/admin\/roster\/#household-\d+$/)
    // The link opens the household's dialog.
    const household = page.getByRole('dialog', { name: "Edit Parent 54's household" })
    await household.waitFor()
    expect(await household.getByRole('link', { name: 'parent54@example.org' }).count()).toBe(1)
    await page.close()
  })
})

describe('the roster', () => {
  /** Opens a household's dialog from its card. */
  async function openHousehold(page: Page, parent: string) {
    await page.locator('li.household', { hasText: parent }).getByRole('button', { name: parent }).click()
    const dialog = page.getByRole('dialog', { name: `Edit ${parent}'s household` })
    await dialog.waitFor()
    return dialog
  }

  it('adds a household and its scouts through one dialog each, edits them, and shows each scout with unit and den', async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/')
    await page.getByRole('button', { name: 'Add a household' }).click()
    const household = page.getByRole('dialog', { name: 'Add a household' })
    await household.getByLabel('Parent name').fill('Sam Rivera')
    const email = household.getByLabel(/^Email/)
    await email.fill('not-an-email')
    await household.getByRole('button', { name: 'Save household' }).click()
    // The browser and the server agree on what an email is; the browser says so first.
    expect(await email.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false)
    await email.fill('sam.rivera@example.org')
    await household.getByRole('button', { name: 'Save household' }).click()
    // The dialog stays open on the new household, for its scouts.
    const card = page.getByRole('dialog', { name: "Edit Sam Rivera's household" })
    await card.getByRole('status').filter({ hasText: "Added Sam Rivera's household" }).waitFor()
    await card.getByText('No scouts yet.').waitFor()

    // One add-scout form for the whole page, opened for the household asked.
    expect(await page.locator('input[name="first_name"]').count()).toBe(1)
    await card.getByRole('button', { name: 'Add a scout' }).click()
    const scout = page.getByRole('dialog', { name: "Add a scout to Sam Rivera's household" })
    await scout.getByLabel('First name').fill('Leo')
    await scout.getByLabel('Unit').selectOption({ label: 'Cub Scout Pack' })
    await scout.getByLabel('Den (optional)').fill('Wolf')
    await scout.getByRole('button', { name: 'Save scout' }).click()
    await card.getByRole('status').filter({ hasText: 'Added Leo.' }).waitFor()
    await card.locator('[data-scout]', { hasText: 'Leo' }).getByText('Cub Scout Pack · Wolf den').waitFor()

    await card.getByRole('button', { name: 'Edit Leo' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Leo' })
    expect(await edit.getByLabel('Den (optional)').inputValue()).toBe('Wolf')
    await edit.getByLabel('Den (optional)').fill('Bear')
    await edit.getByLabel('Last name').fill('Rivera')
    await edit.getByRole('button', { name: 'Save scout' }).click()
    await card.getByRole('status').filter({ hasText: 'Saved Leo.' }).waitFor()
    await card.locator('[data-scout]', { hasText: 'Leo Rivera' }).getByText('Bear den').waitFor()

    await card.getByLabel('Phone (optional)').fill('555-222-3333')
    await card.getByRole('button', { name: 'Save household' }).click()
    await page.getByRole('status').filter({ hasText: "Saved Sam Rivera's household." }).waitFor()
    await page.locator('li.household', { hasText: 'Sam Rivera' }).getByText('Leo Rivera · Bear den').waitFor()
    const reopened = await openHousehold(page, 'Sam Rivera')
    expect(await reopened.getByRole('link', { name: '555-222-3333' }).getAttribute('href')).toBe('tel:5552223333')
    await reopened.getByRole('button', { name: 'Cancel' }).click()
    await reopened.waitFor({ state: 'hidden' })
    await hiddenStaysHidden(page)
    await page.close()
  })

  it('gives the checklist a tap target of at least 44 px, wholly on a phone screen, and keeps the date on a health form', async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/')
    const dialog = await openHousehold(page, 'Sam Rivera')
    const targets = [
      dialog.getByLabel('Dues paid for Leo').locator('xpath=ancestor::label'),
      dialog.getByLabel('Date on Leo’s health form'),
    ]
    for (const target of targets) {
      const r = (await target.boundingBox())!
      expect(r.height).toBeGreaterThanOrEqual(44)
      expect(r.width).toBeGreaterThanOrEqual(44)
      expect(r.x + r.width).toBeLessThanOrEqual(PHONE.width)
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    const formDate = addDays(today(), -10)
    await dialog.getByLabel('Date on Leo’s health form').fill(formDate)
    await dialog.getByRole('status').filter({ hasText: 'Health form for Leo: dated' }).waitFor()
    await dialog
      .locator('[data-scout]', { hasText: 'Leo' })
      .getByText(`Current until ${dayWords(healthFormUntil(formDate), { year: true })}`)
      .waitFor()
    await page.close()
  })

  it("links a parent's account to the household; the parent then sees it on their family page", async () => {
    const before = await suite.signedIn(parent.email, '/family/')
    await before.getByText('not linked to a household yet').waitFor()
    await before.close()

    const page = await suite.signedIn(leader.email, '/admin/roster/')
    const dialog = await openHousehold(page, 'Sam Rivera')
    await dialog.getByText('No family account linked yet.').waitFor()
    await dialog.getByLabel('Link another account').fill('nobody@example.org')
    await dialog.getByRole('button', { name: 'Save household' }).click()
    await dialog.locator('.field-error').filter({ hasText: 'is not the email of an account here' }).waitFor()
    await dialog.getByLabel('Link another account').fill(parent.email)
    await dialog.getByRole('button', { name: 'Save household' }).click()
    await page.getByRole('status').filter({ hasText: "Saved Sam Rivera's household." }).waitFor()
    const again = await openHousehold(page, 'Sam Rivera')
    expect(await again.getByLabel(parent.email).isChecked()).toBe(true)
    await page.close()

    const family = await suite.signedIn(parent.email)
    await family.waitForURL(`${suite.s.url}/family/`)
    await family.locator('[data-scout]').filter({ hasText: 'Leo Rivera' }).waitFor()
    await family.locator('[data-check="health_form"]').filter({ hasText: 'Health form: current until' }).waitFor()
    await family.close()
  })
})

describe('what each person is shown', () => {
  it('lands a family account on its family page; the dashboard and admin pages say plainly what it cannot use', async () => {
    const page = await suite.signedIn(parent.email)
    await page.waitForURL(`${suite.s.url}/family/`)
    await page.goto(`${suite.s.url}/admin/`)
    await page.waitForURL(`${suite.s.url}/family/`)
    await page.goto(`${suite.s.url}/admin/settings/`)
    await page.getByText('Your account cannot use it').waitFor()
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0)
    await page.close()
  })

  it('shows a leader only the menu entries and controls their capabilities allow', async () => {
    const page = await suite.signedIn(leader.email, '/admin/')
    const menu = page.getByRole('navigation', { name: 'Admin' })
    await menu.getByText('Admin menu').click()
    await menu.getByRole('link', { name: 'Leads' }).waitFor()
    for (const name of ['Settings', 'History']) expect(await menu.getByRole('link', { name }).isVisible()).toBe(false)
    expect(await page.locator('.cards').getByRole('link', { name: 'Settings' }).count()).toBe(0)
    await page.goto(`${suite.s.url}/admin/settings/`)
    await page.getByText('Your account cannot use it').waitFor()
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0)
    await page.goto(`${suite.s.url}/admin/people/`)
    await page.locator('li.card', { hasText: parent.email }).waitFor()
    for (const name of ['Disable', 'Edit roles', 'Password reset link'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0)
    await hiddenStaysHidden(page)
    await page.close()
  })

  it('keeps the admin menu to one row on a phone, opened on demand, with the current page marked', async () => {
    const page = await suite.signedIn(leader.email, '/admin/leads/')
    const menu = page.getByRole('navigation', { name: 'Admin' })
    expect((await menu.boundingBox())!.height).toBeLessThanOrEqual(70)
    expect(await menu.getByRole('link', { name: 'Roster' }).isVisible()).toBe(false)
    await menu.getByText('Admin menu').click()
    await menu.getByRole('link', { name: 'Roster' }).waitFor()
    expect(await menu.getByRole('link', { name: 'Leads' }).getAttribute('aria-current')).toBe('page')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.reload()
    await menu.getByRole('link', { name: 'Roster' }).waitFor()
    await page.close()
  })
})

describe('signing in and out', () => {
  it('shows who is signed in in the public header, links to their pages, and says so after signing out', async () => {
    const page = await suite.signedIn(leader.email)
    await page.goto(`${suite.s.url}/`)
    const site = page.getByRole('banner')
    const account = site.getByRole('link', { name: 'Admin (akela)' })
    await account.waitFor()
    expect(await account.getAttribute('href')).toBe('/admin/')
    expect(await site.getByRole('link', { name: 'Sign in' }).count()).toBe(0)
    await page.goto(`${suite.s.url}/admin/`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${suite.s.url}/login/?signed-out`)
    await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor()
    await site.getByRole('link', { name: 'Sign in' }).waitFor()
    await page.close()
  })

  it('offers a way back in for a forgotten password', async () => {
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(`${suite.s.url}/login/`)
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.getByText('Ask a leader or an admin of the pack or the troop for a password-reset link').waitFor()
    await page.close()
  })
})

describe('the public pages', () => {
  it('lists nearby units by type then number, with their notes and dates written like the rest of the site', async () => {
    for (const [name, unit_type, unit_number, notes] of [
      ['Riverside Troop', 'troop', '100', null],
      ['Oak Pack', 'pack', '12', 'Meets in the library basement'],
      ['Hill Crew', 'crew', '3', null],
      ['Elm Pack', 'pack', '7', null],
    ] as const)
      expect(
        (
          await suite.s.req('POST', '/api/admin/nearby', {
            token: ADMIN_TOKEN,
            json: { name, unit_type, unit_number, notes, verified_at: '2026-11-02' },
          })
        ).status,
      ).toBe(201)
    const page = await suite.visit('/nearby/')
    expect(await page.locator('li.card h2').allTextContents()).toEqual([
      'Cub Scout pack 7',
      'Cub Scout pack 12',
      'Scouts BSA troop 100',
      'Venturing crew 3',
    ])
    const oak = page.locator('li.card', { hasText: 'Oak Pack' })
    await oak.getByText('Meets in the library basement').waitFor()
    await oak.getByText('Details checked Mon, Nov 2, 2026').waitFor()
    await page.close()
  })

  it('keeps the catalog out of the main menu (it is in the footer) and its tables scroll inside their own box', async () => {
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(`${suite.s.url}/`)
    expect(
      await page
        .getByRole('navigation', { name: 'Site' })
        .getByRole('link', { name: /catalog/i })
        .count(),
    ).toBe(0)
    await page.getByRole('contentinfo').getByRole('link', { name: 'Catalog data for bots' }).click()
    await page.waitForURL(`${suite.s.url}/catalog/`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await page.close()
  })

  it('agrees with the server on what an email address is, on the join form', async () => {
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(`${suite.s.url}/join/`)
    const email = page.getByLabel('Email')
    for (const address of [
      'alex@rivera',
      'alex@rivera.org',
      'a.b+c@x-y.co',
      'a..b@x.org',
      'x@-a.org',
      "o'hara@x.ie",
      'a b@x.org',
      'ROBIN@Example.ORG',
    ]) {
      await email.fill(address)
      expect(await email.evaluate((el: HTMLInputElement) => el.validity.valid), address).toBe(EMAIL_PATTERN.test(address))
    }
    await page.close()
  })
})

describe('the README screenshots', () => {
  // The roster's, at real size, come from tests/e2e/roster.test.ts.
  it('shows the admin pages at phone width with the data of the journeys above', async () => {
    const page = await suite.signedIn(leader.email)
    for (const [path, name] of [
      ['/admin/', 'dashboard'],
      ['/admin/leads/', 'leads'],
      ['/admin/announcements/', 'announcements'],
      ['/admin/people/', 'people'],
      ['/admin/keys/', 'keys'],
    ]) {
      await page.goto(`${suite.s.url}${path}`)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `readme/${name}`, { fullPage: false })
    }
    await page.close()
  })
})
