// Browser test of event albums at 375 px: a leader opens the campout's photos from the calendar, adds a photo, tags
// the scouts in it (one without photo consent, which keeps it from families), reviews it, then untags that scout; the
// family sees the album on the family page, with the photo loaded and a button to ask for it to come down; made public,
// the photo is on the site's Photos page for any visitor. A family whose scout was at last weekend's campout adds an
// iPhone photo (HEIC) from the family page, and the leader finds it waiting for review, then adds two more at once. Nothing scrolls sideways and
// axe finds nothing serious on any of these pages.
import { beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { ago, attend, pastEvent } from '../attendance.ts'
import { ROLES } from '../helpers.ts'
import { heicPhoto } from '../images.ts'
import { albumEvent, photoFamily, smallPhoto } from '../photos.ts'
import { browserSuite, loadedWidth, PHONE, screenshot, seriousViolations } from './browser.ts'

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
    await page.getByLabel('Add photos').setInputFiles(file)
    await page.getByRole('button', { name: 'Add the photos' }).click()
    const card = page.locator('[data-photo]').first()
    await card.getByText('Who sees it: Leaders only').waitFor()
    expect(await loadedWidth(card.locator('img'))).toBeGreaterThan(0)

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
    expect(await loadedWidth(img)).toBeGreaterThan(0)
    await album.getByRole('button', { name: 'Ask to take it down' }).waitFor()
    await clean(home)
    await screenshot(home, 'album-family-375')

    // Quinn ticked again but not saved, then Make public: the tick is saved first, and Quinn's consent refuses the mark.
    const first = () => page.locator('[data-photo]').first()
    await first().getByLabel('Quinn (no photo consent)').check()
    await first().getByRole('button', { name: 'Make public' }).click()
    await page
      .getByRole('alert')
      .or(page.getByRole('status'))
      .getByText('A scout tagged in this photo has no photo consent, so it cannot be public')
      .waitFor()
    await first().getByText('Who sees it: Leaders only').waitFor()
    expect(await first().getByLabel('Quinn (no photo consent)').isChecked()).toBe(true)

    // Quinn unticked, made public: a visitor finds it from the menu on the site's Photos page, with no scout's name on it.
    await first().getByLabel('Quinn (no photo consent)').uncheck()
    await first().getByRole('button', { name: 'Make public' }).click()
    await page.getByText('Photo 1 is public: it shows on the site’s Photos page.').waitFor()
    await suite.s.site!.settled()
    const visitor = await suite.browser.newPage({ viewport: PHONE, bypassCSP: true })
    await visitor.goto(`${suite.s.url}/`)
    await visitor.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Photos' }).click()
    await visitor.getByRole('heading', { name: /^Fall campout, / }).waitFor()
    const shared = visitor.getByRole('img', { name: 'Photo 1 from Fall campout' })
    expect(await loadedWidth(shared)).toBeGreaterThan(0)
    expect(await visitor.locator('main').textContent()).not.toContain('Robin')
    await clean(visitor)
    await screenshot(visitor, 'albums-public-375')
  })

  it('a family whose scout was at the campout adds a photo from the family page; the leader sees it for review', async () => {
    const uid = await pastEvent(suite.s, leader.cookie, { title: 'Lake campout', date: ago(2), unit: 'pack' })
    const family = await photoFamily(suite.s, 'pack', true)
    await attend(suite.s, leader.cookie, uid, [family.scout])
    const dir = mkdtempSync(path.join(tmpdir(), 'family-album-'))
    const photo = path.join(dir, 'IMG_4242.HEIC')
    writeFileSync(photo, await heicPhoto())
    const notes = path.join(dir, 'notes.txt')
    writeFileSync(notes, 'Bring a flashlight')

    const home = await suite.signedIn(family.email, '/family/')
    const album = home.locator(`[data-album="${uid}"]`)
    await album.getByRole('heading', { name: /Lake campout/ }).waitFor()
    await album.getByText('No photos here yet.').waitFor()
    const input = album.getByLabel('Add a photo from Lake campout')
    expect(await input.getAttribute('type')).toBe('file')
    expect(await input.getAttribute('accept')).toBe('image/*')
    await clean(home)
    await album.getByRole('button', { name: 'Send the photo' }).click()
    await album.getByRole('alert').getByText('Choose a photo first.').waitFor()
    // What the server refuses is said in its words, next to the form.
    await input.setInputFiles(notes)
    await album.getByRole('button', { name: 'Send the photo' }).click()
    await album
      .getByRole('alert')
      .getByText(/send a photo \(JPEG, PNG, WebP or HEIC\)/)
      .waitFor()
    await input.setInputFiles(photo)
    await album.getByRole('button', { name: 'Send the photo' }).click()
    await album.getByRole('status').getByText('Photo added. A leader looks at it, then other families of the unit see it here.').waitFor()
    expect(await album.getByRole('alert').isHidden()).toBe(true)
    expect(await input.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0)
    await clean(home)
    await screenshot(home, 'album-family-upload-375')

    const page = await suite.signedIn(leader.email, `/admin/calendar/photos/?uid=${encodeURIComponent(uid)}`)
    await page.getByRole('heading', { name: 'Photos: Lake campout' }).waitFor()
    const card = page.locator('[data-photo]').first()
    await card.getByText('Waiting for review.').waitFor()
    await card.getByText('Who sees it: Leaders only').waitFor()
    const img = card.locator('img')
    expect(await loadedWidth(img)).toBeGreaterThan(0)
    expect(await page.locator('[data-photo]').count()).toBe(1)

    // The leader adds the hike's photos at once: both go, one after the other; a file that is no photo is named.
    const more = ['trail.jpg', 'summit.jpg'].map((name) => path.join(dir, name))
    writeFileSync(more[0], await smallPhoto('jpeg', '#3a6'))
    writeFileSync(more[1], await smallPhoto('jpeg', '#a63'))
    await page.getByLabel('Add photos').setInputFiles([more[0], notes, more[1]])
    await page.getByRole('button', { name: 'Add the photos' }).click()
    await page.getByRole('status').getByText('2 photos added: tag the scouts in each, then show them to families.').waitFor()
    await page
      .getByRole('alert')
      .getByText(/^Not added: notes\.txt: /)
      .waitFor()
    expect(await page.locator('[data-photo]').count()).toBe(3)
  })
})
