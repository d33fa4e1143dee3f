// The Files page in Chromium at 375 px: a leader uploads the permission slip (members only) and a photo, sees each
// with its address, puts the photo into a content page, and deletes the slip; axe finds nothing; the public page
// shows the photo with its srcset and size, and the slip's address answers a visitor 404.
import { describe, expect, it } from 'bun:test'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { phonePhoto } from '../images.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite()

describe('the Files page at 375 px', () => {
  it('uploads, lists with addresses, shows an image in a page, and deletes', async () => {
    const { s } = suite
    const leader = await s.person({ units: [{ slug: 'pack', role: 'leader' }] })
    const slip = path.join(s.dir, 'Permission slip.pdf')
    writeFileSync(slip, '%PDF-1.4\n% permission slip\n%%EOF\n')
    const photo = path.join(s.dir, 'campfire.jpg')
    writeFileSync(photo, await phonePhoto())

    const page = await suite.signedIn(leader.email, '/admin/files/')
    await page.getByRole('heading', { name: 'Upload a file' }).waitFor()
    await page.getByLabel(/^File/).setInputFiles(slip)
    await page.getByLabel('For').selectOption('pack')
    await page.getByLabel('Only signed-in families and leaders of the unit').check()
    await page.getByRole('button', { name: 'Upload' }).click()
    await page.getByText('Uploaded Permission-slip.pdf.').waitFor()
    await page.getByLabel(/^File/).setInputFiles(photo)
    await page.getByRole('button', { name: 'Upload' }).click()
    await page.getByText('Uploaded campfire.jpg.').waitFor()
    const cards = page.locator('[data-file]')
    expect(await cards.count()).toBe(2)
    expect(
      await cards
        .filter({ hasText: 'Permission-slip.pdf' })
        .getByText(/members only/)
        .count(),
    ).toBe(1)
    const photoUrl = await page.getByLabel('Address of campfire.jpg').inputValue()
    const slipUrl = await page.getByLabel('Address of Permission-slip.pdf').inputValue()
    expect(photoUrl).toMatch(/^\/files\/[\w-]{22}\/campfire\.jpg$/)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'files')

    const refused = path.join(s.dir, 'logo.svg')
    writeFileSync(refused, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    await page.getByLabel(/^File/).setInputFiles(refused)
    await page.getByRole('button', { name: 'Upload' }).click()
    await page.getByRole('alert').getByText('Web pages and SVG drawings cannot be uploaded', { exact: false }).waitFor()

    const res = await s.req('POST', '/api/admin/pages', {
      cookie: await s.signIn(leader.email),
      json: { slug: 'campfire', title: 'Campfire', body: `![Scouts around the campfire](${photoUrl})`, unit: 'pack', published: true },
    })
    expect(res.status).toBe(201)
    const visitor = await suite.visit('/pages/campfire/')
    const img = visitor.getByRole('img', { name: 'Scouts around the campfire' })
    await img.waitFor()
    expect(await img.getAttribute('width')).toBe('1200')
    expect(await img.getAttribute('srcset')).toContain('/sizes/w480.jpg 480w')
    await visitor.waitForFunction(() => {
      const shown = document.querySelector('main picture img') as HTMLImageElement | null
      return !!shown && shown.complete && shown.naturalWidth > 0
    })
    expect((await visitor.goto(`${s.url}${slipUrl}`))?.status()).toBe(404)
    await visitor.close()

    await cards.filter({ hasText: 'Permission-slip.pdf' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Permission-slip.pdf is deleted.').waitFor()
    expect(await page.locator('[data-file]').count()).toBe(1)
    await page.close()
  }, 120_000)
})
