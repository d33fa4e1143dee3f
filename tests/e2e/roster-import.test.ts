// Roster import in Chromium at 375 px: a pack leader brings the BSA Member Roster export in from the roster page
// (preview, then import), an admin a spreadsheet of both units; bad rows show with their line; the roster's own CSV
// download, imported back, finds nothing to change; nothing overflows the phone's width and axe finds nothing serious.
import { beforeAll, describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { ROLES } from '../helpers.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
const FIXTURES = path.join(import.meta.dir, '..', 'fixtures', 'roster')
let leader: { email: string }
let admin: { email: string }
beforeAll(async () => {
  leader = await suite.s.person({ units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }], email: 'akela@example.org' })
  admin = await suite.s.person({ ...ROLES.admin, email: 'registrar@example.org' })
})

const count = async (table: 'households' | 'scouts') =>
  Number(
    (
      await suite.s.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
const fitsPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

async function previewFile(page: Page, file: string, unit = '') {
  await page.getByLabel('CSV file').setInputFiles(file)
  if (unit) await page.getByLabel('Unit for rows that name none').selectOption(unit)
  await page.getByRole('button', { name: 'Preview' }).click()
  await page.getByRole('heading', { name: 'What this file would do' }).waitFor()
}

describe('importing the roster at 375 px', () => {
  it('a pack leader imports the BSA export from the roster page: preview, then import', async () => {
    const page = await suite.signedIn(leader.email, '/admin/roster/', { viewport: PHONE })
    await page.getByRole('link', { name: 'Import from a file' }).click()
    await page.waitForURL('**/admin/roster/import/')
    await previewFile(page, path.join(FIXTURES, 'bsa-member-roster.csv'))
    await page.getByText('Households: 60 new households, 0 to update').waitFor()
    expect(await page.locator('#preview-counts').textContent()).toContain('Scouts: 75 new scouts')
    expect(await page.locator('#bad-section').isHidden()).toBe(true)
    expect(await page.locator('#warnings').textContent()).toContain('Health Form A/B Status')
    expect(await page.locator('#warnings').textContent()).toContain('New dens and patrols: Lion (pack)')
    await page.getByText('Households and scouts').click()
    await page.getByText('Alex Abbott · alex.abbott@example.org: Avery Abbott (pack, Lion); Harper Abbott (pack, Tiger)').waitFor()
    expect(await fitsPhone(page)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'roster-import-preview-375')
    expect(await count('households')).toBe(0)
    await page.getByRole('button', { name: 'Import these' }).click()
    await page.getByText('Imported: 60 households and 75 scouts added, 0 households and 0 scouts updated.').waitFor()
    expect(await count('households')).toBe(60)
    expect(await count('scouts')).toBe(75)
    await page.getByRole('link', { name: 'Open the roster' }).click()
    await page.locator('#counts').filter({ hasText: '60 households · 75 scouts' }).waitFor()
  })

  it('an admin imports a spreadsheet of both units; bad rows show with their line and are left out', async () => {
    const page = await suite.signedIn(admin.email, '/admin/roster/import/', { viewport: PHONE })
    await previewFile(page, path.join(FIXTURES, 'generic-roster.csv'))
    // The same families as the BSA file (the same member ids): the troop's half moves, the pack's is as it was.
    await page.getByText(/Scouts: 0 new scouts, 30 to update, 45 already as the file says/).waitFor()
    await page.getByRole('button', { name: 'Import these' }).click()
    await page.getByText('Imported: 0 households and 0 scouts added, 0 households and 30 scouts updated.').waitFor()

    const bad = path.join(suite.s.dir, 'with-bad-rows.csv')
    writeFileSync(
      bad,
      'First Name,Last Name,Patrol,Parent Name,Parent Email\nLee,Stone,Owl Patrol,Kim Stone,kim@example.org\nMo,Stone,Owl Patrol,,\n',
    )
    await previewFile(page, bad, 'troop')
    await page.getByText('Line 3: no parent name').waitFor()
    expect(await fitsPhone(page)).toBe(true)
    await page.getByRole('button', { name: 'Import these' }).click()
    await page.getByText('Imported: 1 household and 1 scout added, 0 households and 0 scouts updated, 1 bad row left out.').waitFor()
    expect(await suite.s.db.selectFrom('scouts').select('first_name').where('last_name', '=', 'Stone').execute()).toEqual([
      { first_name: 'Lee' },
    ])
  })

  it('a file that is not a roster is refused in words; the roster’s own CSV, imported back, has nothing to change', async () => {
    const page = await suite.signedIn(admin.email, '/admin/roster/', { viewport: PHONE })
    await page.locator('#roster-actions').waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download these as CSV' }).click()])
    const exported = path.join(suite.s.dir, 'roster-export.csv')
    await download.saveAs(exported)
    await page.goto(`${suite.s.url}/admin/roster/import/`)
    const words = path.join(suite.s.dir, 'words.csv')
    writeFileSync(words, 'just some words\nand more\n')
    await page.getByLabel('CSV file').setInputFiles(words)
    await page.getByRole('button', { name: 'Preview' }).click()
    await page.getByText(/no header row naming a scout’s first name/).waitFor()
    await previewFile(page, exported)
    await page.getByText('Scouts: 0 new scouts, 0 to update, 76 already as the file says').waitFor()
    expect(await page.getByRole('button', { name: 'Nothing to import' }).isDisabled()).toBe(true)
  })
})
