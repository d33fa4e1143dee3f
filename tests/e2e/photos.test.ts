// Browser test of event albums at 375 px: a leader opens the campout's photos from the calendar, adds a photo, tags
// the scouts in it (one without photo consent, which keeps it from families), reviews it, then untags that scout; the
// family sees the album on the family page, with the photo loaded and a button to ask for it to come down. Nothing
// scrolls sideways and axe finds nothing serious on either page.
import { beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { ROLES } from '../helpers.ts'
import { albumEvent, photoFamily, smallPhoto } from '../photos.ts'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()
let leader: { email: string; cookie: string }
beforeAll(async () => (leader = await suite.s.as({ ...ROLES.packLeader, email: 'album.leader@example.org' })))

async function clean(page: Page) {
  const shown = await page.evaluate(() => [...document.querySelectorAll('[hidden]')].filter((el) => el.checkVisibility()).length)
  expect(shown).toBe(0)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  expect(await seriousViolations(page)).toEqual([])
}

describe('event albums in Chromium at 375 px', () => {
  it('a leader adds and tags a photo and reviews it; the family sees it on the family page', async () => {
    const uid = await albumEvent(suite.s, leader, 'pack', 'Fall campout')
    const family = await photoFamily(suite.s, 'pack', true, uid)
    const noConsent = await photoFamily(suite.s, 'pack', false)
    await suite.s.db.updateTable('scouts').set({ first_name: 'Robin' }).where('id', '=', family.scout).execute()
    await suite.s.db.updateTable('scouts').set({ first_name: 'Quinn' }).where('id', '=', noConsent.scout).execute()
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'album-')), 'campfire.jpg')
    writeFileSync(file, await smallPhoto())

    const page = await suite.signedIn(leader.email, '/admin/calendar/')
    await page.getByRole('button', { name: 'See the replies' }).first().waitFor()
    await page.locator(`[data-event="${uid}"]`).getByRole('link', { name: 'Photos' }).click()
    await page.getByRole('heading', { name: 'Photos: Fall campout' }).waitFor()
    await page.getByText('No photos yet.').waitFor()
    await page.getByLabel('Add a photo').setInputFiles(file)
    await page.getByRole('button', { name: 'Add the photo' }).click()
    const card = page.locator('[data-photo]').first()
    await card.getByText('Who sees it: Leaders only').waitFor()
    expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)

    await card.getByLabel('Robin').check()
    await card.getByLabel('Quinn (no photo consent)').check()
    await card.getByRole('button', { name: 'Save tags' }).click()
    await page.getByText('Tags of photo 1 saved.').waitFor()
    await page.locator('[data-photo]').first().getByRole('button', { name: 'Show to families' }).click()
    await page.getByText('Photo 1 reviewed.').waitFor()
    // Reviewed, but Quinn's family said no to photos: still for leaders only.
    await page.locator('[data-photo]').first().getByText('Who sees it: Leaders only').waitFor()
    await clean(page)
    await screenshot(page, 'album-leader-375')
    const family1 = await suite.signedIn(family.email, '/family/')
    await family1.getByRole('heading', { name: 'Your household' }).or(family1.getByText('Your leaders')).first().waitFor()
    expect(await family1.locator('#albums').isHidden()).toBe(true)

    await page.locator('[data-photo]').first().getByLabel('Quinn (no photo consent)').uncheck()
    await page.locator('[data-photo]').first().getByRole('button', { name: 'Save tags' }).click()
    await page.getByText('Tags of photo 1 saved.').waitFor()
    await page.locator('[data-photo]').first().getByRole('button', { name: 'Show to families' }).click()
    await page.locator('[data-photo]').first().getByText('Who sees it: Families of the unit').waitFor()

    const home = await suite.signedIn(family.email, '/family/')
    const album = home.locator(`[data-album="${uid}"]`)
    await album.getByRole('heading', { name: /Fall campout/ }).waitFor()
    const img = album.getByRole('img', { name: 'Photo 1 from Fall campout' })
    await img.scrollIntoViewIfNeeded()
    await home.waitForFunction(
      (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
      await img.elementHandle(),
    )
    await album.getByRole('button', { name: 'Ask to take it down' }).waitFor()
    await clean(home)
    await screenshot(home, 'album-family-375')
  })
})
