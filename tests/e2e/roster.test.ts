// The roster at real size (60 households, 90 scouts), in Chromium at 375 px and at 1280 px: search and each filter
// narrow the cards with the right counts, kept in the address; a den leader's den is one tap away; a card opens its
// household's dialog, where a scout's member ID is saved and a parent invited; axe finds nothing serious; and the
// README's roster screenshots.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { plural } from '../../server/words.ts'
import { ROLES } from '../helpers.ts'
import { seedRoster } from '../households.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
const LAPTOP = { width: 1280, height: 900 }
let leader: { id: number; email: string }
let denLeader: { id: number; email: string }
let seeded: Awaited<ReturnType<typeof seedRoster>>
beforeAll(async () => {
  leader = await suite.s.person({ units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }], email: 'akela@example.org' })
  denLeader = await suite.s.person({ units: [{ slug: 'pack', role: 'leader', title: 'Wolf den leader' }], email: 'wolf.den@example.org' })
  await suite.s.person({ ...ROLES.troopLeader, email: 'scoutmaster@example.org' })
  seeded = await seedRoster(suite.s, 60)
})

/** The counts line as the page writes it. */
const countsLine = (c: { households: number; scouts: number; dues_unpaid: number; health_missing: number }) =>
  `${plural(c.households, 'household')} · ${plural(c.scouts, 'scout')} · ${c.dues_unpaid} dues unpaid · ${plural(c.health_missing, 'health form')} missing or expiring`

/** What a filter over the seeded scouts should find: households with such a scout, and how many scouts. */
function expected(keep: (scout: (typeof seeded.households)[number]['scouts'][number], active: boolean) => boolean) {
  const households = seeded.households
    .map((h) => ({ ...h, scouts: h.scouts.filter((sc) => keep(sc, h.active)) }))
    .filter((h) => h.scouts.length)
  const active = households.filter((h) => h.active).flatMap((h) => h.scouts)
  return {
    households: households.length,
    scouts: households.reduce((n, h) => n + h.scouts.length, 0),
    dues_unpaid: active.filter((sc) => !sc.dues).length,
    health_missing: active.filter((sc) => sc.health !== 'current').length,
  }
}

const cards = (page: Page) => page.locator('li.household')
const filter = (page: Page, label: string | RegExp, exact = false) => page.getByRole('search').getByLabel(label, { exact })
const counts = (page: Page) => page.locator('#counts')
async function shows(page: Page, c: Parameters<typeof countsLine>[0]) {
  await counts(page)
    .filter({ hasText: countsLine(c) })
    .waitFor()
  expect(await cards(page).count()).toBe(c.households)
}
/** Opens the filters when they are folded away (on a phone). */
async function filtersOpen(page: Page) {
  const details = page.locator('#more-filters')
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await details.locator('summary').click()
}

for (const viewport of [PHONE, LAPTOP])
  describe(`the roster at ${viewport.width} px`, () => {
    const open = (email = leader.email, path = '/admin/roster/') => suite.signedIn(email, path, { viewport })

    it('shows all 60 households as short cards under the counts line, sorted by last name, axe clean, never wider than the screen', async () => {
      const page = await open()
      await shows(page, seeded.counts)
      expect(await counts(page).textContent()).toBe(countsLine(seeded.counts))
      expect(await cards(page).first().locator('h2').textContent()).toBe('Marcus Abbott')
      expect(await cards(page).last().locator('h2').textContent()).toBe('Paula Young (inactive)')
      // A short card: the parent, the scouts with their den or patrol, and badges; no contact details or checklist.
      const cote = cards(page).filter({ hasText: 'Renée Côté' })
      await cote.getByText('Chloé Côté · Tiger den').waitFor()
      await cote.getByText('Theo Côté · Eagle Patrol').waitFor()
      expect(await cote.locator('.badge').allTextContents()).toContain('photos OK')
      expect(await cote.locator('input').count()).toBe(0)
      expect(await page.locator('body').textContent()).not.toMatch(/Patrol den/i)
      if (viewport === PHONE) {
        const box = (await cote.boundingBox())!
        expect(box.height).toBeLessThan(240)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
      }
      expect(await seriousViolations(page)).toEqual([])
      await page.close()
    })

    it('narrows by search as you type, keeps it in the address through a reload, and back undoes a filter', async () => {
      const page = await open()
      await shows(page, seeded.counts)
      await filter(page, 'Search').fill('cote')
      await shows(page, { households: 1, scouts: 2, ...dueAndHealth('Renée Côté') })
      expect(new URL(page.url()).searchParams.get('q')).toBe('cote')
      await page.reload()
      await shows(page, { households: 1, scouts: 2, ...dueAndHealth('Renée Côté') })
      expect(await filter(page, 'Search').inputValue()).toBe('cote')
      // A phone number by its digits, however it is written.
      await filter(page, 'Search').fill('(555) 101-1379')
      await cards(page).filter({ hasText: 'Renée Côté' }).waitFor()
      await filter(page, 'Search').fill('')
      await shows(page, seeded.counts)
      await filtersOpen(page)
      await filter(page, 'Dues unpaid').check()
      await shows(
        page,
        expected((sc, active) => active && !sc.dues),
      )
      await page.goBack()
      await shows(page, seeded.counts)
      expect(await filter(page, 'Dues unpaid').isChecked()).toBe(false)
      await page.close()
    })

    it('narrows by unit, den or patrol, unpaid dues and missing or expiring health forms, each with the right count', async () => {
      const page = await open()
      await shows(page, seeded.counts)
      await filtersOpen(page)
      await filter(page, 'Dues unpaid').check()
      const unpaid = expected((sc, active) => active && !sc.dues)
      await shows(page, unpaid)
      expect(unpaid.scouts).toBe(seeded.counts.dues_unpaid)
      await filter(page, 'Dues unpaid').uncheck()
      await filter(page, 'Health form missing or expiring').check()
      const missing = expected((sc, active) => active && sc.health !== 'current')
      await shows(page, missing)
      expect(missing.scouts).toBe(seeded.counts.health_missing)
      // Both at once: the scouts that owe both.
      await filter(page, 'Dues unpaid').check()
      await shows(
        page,
        expected((sc, active) => active && !sc.dues && sc.health !== 'current'),
      )
      expect(new URL(page.url()).search).toBe('?dues=unpaid&health=missing')
      await filter(page, 'Dues unpaid').uncheck()
      await filter(page, 'Health form missing or expiring').uncheck()

      await filter(page, 'Unit').selectOption('troop')
      await shows(
        page,
        expected((sc) => sc.unit === 'troop'),
      )
      // In the troop the den is a patrol.
      expect(await page.locator('#den-label').textContent()).toBe('Patrol')
      const patrol = page.locator('#den')
      expect(await patrol.locator('option').allTextContents()).toEqual(['Every patrol', 'Eagle Patrol', 'Fox Patrol', 'Hawk Patrol'])
      await patrol.selectOption('Hawk Patrol')
      await shows(
        page,
        expected((sc) => sc.den === 'Hawk Patrol'),
      )
      await filter(page, 'Unit').selectOption('')
      await shows(
        page,
        expected((sc) => sc.den === 'Hawk Patrol'),
      )
      await page.locator('#den-label').filter({ hasText: 'Den or patrol' }).waitFor()
      const den = filter(page, 'Den or patrol')
      expect(await den.locator('option').allTextContents()).toContain('Wolf den')
      await den.selectOption('Wolf')
      await shows(
        page,
        expected((sc) => sc.den === 'Wolf'),
      )
      expect(await seriousViolations(page)).toEqual([])
      await page.close()
    })

    it("puts a den leader's own den one tap away", async () => {
      const page = await open(denLeader.email)
      await shows(page, seeded.counts)
      const dens = page.getByRole('group', { name: 'Your dens:' })
      expect(await dens.getByRole('button').allTextContents()).toEqual(['Wolf den'])
      await dens.getByRole('button', { name: 'Wolf den' }).click()
      await shows(
        page,
        expected((sc) => sc.den === 'Wolf'),
      )
      expect(await dens.getByRole('button', { name: 'Wolf den' }).getAttribute('aria-pressed')).toBe('true')
      expect(new URL(page.url()).searchParams.get('den')).toBe('Wolf')
      await dens.getByRole('button', { name: 'Wolf den' }).click()
      await shows(page, seeded.counts)
      await page.close()
      // The Cubmaster, whose title names no den, gets every den of the pack.
      const cubmaster = await open()
      const all = cubmaster.getByRole('group', { name: 'Your dens:' }).getByRole('button')
      await all.first().waitFor()
      expect(await all.allTextContents()).toEqual(['Arrow of Light den', 'Bear den', 'Lion den', 'Tiger den', 'Webelos den', 'Wolf den'])
      await cubmaster.close()
    })

    it('opens a household from its card, with its scouts and checklist; saves a scout’s member ID', async () => {
      const page = await open()
      const name = viewport === PHONE ? 'Priya Natarajan' : 'Marcus Abbott'
      // Anywhere on the card opens it: here, below the name.
      const card = cards(page).filter({ hasText: name })
      await card.click({ position: { x: 20, y: ((await card.boundingBox())!.height * 3) / 4 } })
      const dialog = page.getByRole('dialog', { name: `Edit ${name}'s household` })
      await dialog.waitFor()
      expect(await dialog.getByLabel('Parent name').inputValue()).toBe(name)
      expect(await seriousViolations(page)).toEqual([])
      const household = seeded.households.find((h) => h.parent_name === name)!
      const scout = household.scouts[0]
      await dialog.getByRole('button', { name: `Edit ${scout.first_name}` }).click()
      const edit = page.getByRole('dialog', { name: `Edit ${scout.first_name}` })
      const memberId = edit.getByLabel('Member ID')
      await memberId.fill('123')
      await edit.getByRole('button', { name: 'Save scout' }).click()
      expect(await memberId.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false)
      const id = viewport === PHONE ? '12345678' : '987654321'
      await memberId.fill(id)
      await edit.getByRole('button', { name: 'Save scout' }).click()
      await dialog
        .getByRole('status')
        .filter({ hasText: `Saved ${scout.first_name}.` })
        .waitFor()
      const row = await suite.s.db
        .selectFrom('scouts')
        .innerJoin('households', 'households.id', 'scouts.household_id')
        .select('scouts.org_member_id')
        .where('households.parent_name', '=', name)
        .where('scouts.first_name', '=', scout.first_name)
        .executeTakeFirstOrThrow()
      expect(row.org_member_id).toBe(id)
      await dialog.getByRole('button', { name: `Edit ${scout.first_name}` }).click()
      expect(await edit.getByLabel('Member ID').inputValue()).toBe(id)
      expect(await edit.getByLabel(scout.unit === 'troop' ? 'Patrol (optional)' : 'Den (optional)').inputValue()).toBe(scout.den)
      await edit.getByRole('button', { name: 'Cancel' }).click()
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await page.close()
    })
  })

describe("the second parent's email at 375 px", () => {
  it('is a field of the household dialog: an address is checked, saved and shown again', async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/', { viewport: PHONE })
    const name = seeded.households.find((h) => h.active && !['Priya Natarajan', 'Marcus Abbott'].includes(h.parent_name))!.parent_name
    await cards(page).filter({ hasText: name }).first().click()
    const dialog = page.getByRole('dialog', { name: `Edit ${name}'s household` })
    await dialog.waitFor()
    const field = dialog.getByLabel("Second parent's email (optional)")
    expect(await field.getAttribute('type')).toBe('email')
    const box = (await field.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
    await field.fill('second.parent@example.org')
    await dialog.getByRole('button', { name: 'Save household' }).click()
    await page.getByText(`Saved ${name}'s household.`).first().waitFor()
    const row = await suite.s.db.selectFrom('households').select('second_email').where('parent_name', '=', name).executeTakeFirstOrThrow()
    expect(row.second_email).toBe('second.parent@example.org')
    await page.close()
  })
})

/** The dues and health counts of one seeded household. */
function dueAndHealth(parent: string) {
  const h = seeded.households.find((x) => x.parent_name === parent)!
  return {
    dues_unpaid: h.active ? h.scouts.filter((sc) => !sc.dues).length : 0,
    health_missing: h.active ? h.scouts.filter((sc) => sc.health !== 'current').length : 0,
  }
}

describe('inviting a parent from their household', () => {
  it('invites a parent from the household dialog; the roster shows the invite waiting, and accepting links the account', async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/?q=hale')
    await cards(page).first().getByRole('button', { name: 'Robin Hale' }).click()
    const dialog = page.getByRole('dialog', { name: "Edit Robin Hale's household" })
    await dialog.getByText('No family account linked yet.').waitFor()
    await dialog.getByRole('button', { name: 'Invite a parent' }).click()
    const invite = page.getByRole('dialog', { name: 'Invite a parent' })
    expect(await invite.getByLabel('Their email').inputValue()).toBe('robin.hale@example.org')
    await invite.getByRole('button', { name: 'Create invite link' }).click()
    await dialog.getByRole('status').filter({ hasText: 'Invite link for robin.hale@example.org' }).waitFor()
    await dialog.getByText('Invited robin.hale@example.org — waiting').waitFor()
    const link = (await dialog.locator('code.secret').textContent())!.replace('http://127.0.0.1:1', suite.s.url)
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await cards(page).first().getByText('Invited robin.hale@example.org — waiting').waitFor()
    await page.close()

    const family = await suite.browser.newPage({ viewport: PHONE })
    await family.goto(link)
    await family.getByLabel('Password').fill('family password')
    await family.getByRole('button', { name: 'Create my account' }).click()
    await family.waitForURL(`${suite.s.url}/family/`)
    await family.getByText('Robin Hale', { exact: false }).first().waitFor()
    await family.close()

    const again = await suite.signedIn(leader.email, '/admin/roster/?q=hale')
    await cards(again).first().getByRole('button', { name: 'Robin Hale' }).click()
    const reopened = again.getByRole('dialog', { name: "Edit Robin Hale's household" })
    await reopened.getByLabel('robin.hale@example.org').waitFor()
    expect(await reopened.getByText('— waiting').count()).toBe(0)
    await again.close()
  })
})

describe('the README screenshots of the roster', () => {
  it('shows the 60-household roster at phone and laptop width, and a household opened', async () => {
    const phone = await suite.signedIn(leader.email, '/admin/roster/')
    await shows(phone, seeded.counts)
    await screenshot(phone, 'readme/roster', { fullPage: false })
    await cards(phone).filter({ hasText: 'Renée Côté' }).getByRole('button', { name: 'Renée Côté' }).click()
    await phone.getByRole('dialog', { name: "Edit Renée Côté's household" }).waitFor()
    await screenshot(phone, 'readme/roster-household', { fullPage: false })
    await phone.close()
    const laptop = await suite.signedIn(leader.email, '/admin/roster/', { viewport: LAPTOP })
    await shows(laptop, seeded.counts)
    await screenshot(laptop, 'readme/roster-wide', { fullPage: false })
    await laptop.close()
  })
})

describe('a lead to the roster, with its scout', () => {
  it('asks which unit when the family was not sure, then adds the household with the scout and grade', async () => {
    await suite.s.db
      .insertInto('leads')
      .values({
        created_at: new Date().toISOString(),
        parent_name: 'Quinn Avery',
        email: 'quinn.avery@example.org',
        phone: null,
        scout_name: 'Jamie Avery',
        scout_grade: '3',
        unit: 'unsure',
        message: null,
        claimed_by: leader.id,
        claimed_at: new Date().toISOString(),
      })
      .execute()
    const page = await suite.signedIn(leader.email, '/admin/leads/')
    const card = page.locator('li.card', { hasText: 'Quinn Avery' })
    await card.getByRole('button', { name: 'Add to roster' }).click()
    const question = card.getByRole('group', { name: 'Which unit should Jamie Avery join?' })
    // A pack leader keeps scouts in the pack only.
    expect(await question.getByRole('button').allTextContents()).toEqual(['The pack', 'Cancel'])
    await question.getByRole('button', { name: 'The pack' }).click()
    await page.getByRole('status').filter({ hasText: "Added Quinn Avery's household to the roster, with Jamie in the pack." }).waitFor()
    await page.locator('li.card', { hasText: 'Quinn Avery' }).getByRole('link', { name: 'On the roster' }).click()
    const dialog = page.getByRole('dialog', { name: "Edit Quinn Avery's household" })
    await dialog.locator('[data-scout]', { hasText: 'Jamie Avery' }).getByText('Cub Scout Pack · grade 3').waitFor()
    await page.close()
  })
})
