// Content pages and the unit page in Chromium at 375 px: a leader writes a page in Markdown, previews it and
// publishes it; the public page shows it (hostile Markdown inert); the unit page names its leaders (an email only
// when ticked on the account page), its pages, its next three events and the subscribe links; axe finds nothing.
import { beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync } from 'node:fs'
import path from 'node:path'
import { toICalendar } from '../../server/calendar/event.ts'
import { getSetting } from '../../server/settings/registry.ts'
import { addDays, today } from '../dates.ts'
import { addHousehold } from '../households.ts'
import { browserSuite, PHONE, screenshot, SCREENSHOTS, seriousViolations } from './browser.ts'

const suite = browserSuite()
let akela: { email: string }
let baloo: { email: string }

const BODY = `Every scout brings the **Scout basics** to every outing, in a bag they can carry themselves.

# Day hikes

- a water bottle
- a flashlight

# Campouts

1. a sleeping bag rated for the season
2. a plate, a cup and a spoon

Questions? See [the calendar](/calendar/pack/) or [the council's list](https://council.example.org).`

const HOSTILE = `<script>window.pwned = 1</script>

<img src=x onerror="window.pwned = 1">

[click me](javascript:window.pwned=1) and [data](data:text/html,hi)`

/**
 * A visitor's phone-sized page once the site is rebuilt. CSP is bypassed for axe-core, which also means the hostile
 * page's inertness rests on the renderer alone, not on the CSP.
 */
async function visit(at: string) {
  await suite.s.site!.settled()
  const page = await suite.browser.newPage({ viewport: PHONE, bypassCSP: true })
  await page.goto(`${suite.s.url}${at}`)
  return page
}

beforeAll(async () => {
  const { s } = suite
  const leader = async (name: string, title: string) => {
    const p = await s.person({ units: [{ slug: 'pack', role: 'leader', title }] })
    await s.db.updateTable('people').set({ name }).where('id', '=', p.id).execute()
    return p
  }
  akela = await leader('Akela Avery', 'Cubmaster')
  baloo = await leader('Baloo Brook', 'Den leader')
  await addHousehold(s.db, { unit: 'pack', email: null, parent_name: 'Pat Parent', scouts: [{ first_name: 'Sammy', last_name: 'Secret' }] })
  const timeZone = await getSetting(s.db, 'site.timezone')
  const now = new Date().toISOString()
  for (const [uid, title, days] of [
    ['hike', 'Pack hike', 3],
    ['derby', 'Pinewood derby', 6],
    ['camp', 'Family campout', 9],
    ['banquet', 'Blue and gold banquet', 12],
  ] as const)
    await s.db
      .insertInto('calendar_objects')
      .values({
        uid,
        url: `/site/units/${uid}.ics`,
        etag: null,
        ics: toICalendar(uid, { title, unit: 'pack', date: addDays(today(), days) }, timeZone),
        synced_at: now,
      })
      .execute()
}, 60_000)

describe('a content page at 375 px', () => {
  it('is written in Markdown, previewed as it will look, published and shown on the public site', async () => {
    const page = await suite.signedIn(akela.email, '/admin/pages/')
    await page.getByRole('button', { name: 'Write a new page' }).click()
    await page.getByLabel('Title').fill('What to bring')
    expect(await page.getByLabel('Address (slug)').inputValue()).toBe('what-to-bring')
    await page.getByLabel('For').selectOption('pack')
    await page.getByLabel('Text (Markdown)').fill(BODY)
    await page.getByRole('button', { name: 'Preview' }).click()
    const preview = page.locator('#preview-page')
    await preview.getByRole('heading', { name: 'Day hikes', level: 2 }).waitFor()
    expect(await preview.locator('ul li').allTextContents()).toEqual(['a water bottle', 'a flashlight'])
    expect(await preview.getByRole('link', { name: "the council's list" }).getAttribute('href')).toBe('https://council.example.org')
    expect(await seriousViolations(page)).toEqual([])

    await page.getByLabel('Published (on the public site)').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved “What to bring”; it shows at /pages/what-to-bring/').waitFor()
    await page.locator('[data-page="what-to-bring"]').getByText('published', { exact: true }).waitFor()
    await page.close()

    const visitor = await visit('/pages/what-to-bring/')
    await visitor.getByRole('heading', { name: 'What to bring', level: 1 }).waitFor()
    const main = visitor.getByRole('main')
    await main.getByRole('heading', { name: 'Campouts', level: 2 }).waitFor()
    expect(await main.locator('ol li').allTextContents()).toEqual(['a sleeping bag rated for the season', 'a plate, a cup and a spoon'])
    expect(await main.getByRole('link', { name: 'the calendar' }).getAttribute('href')).toBe('/calendar/pack/')
    expect(await visitor.locator('meta[name="description"]').getAttribute('content')).toStartWith(
      'Every scout brings the Scout basics to every outing, in a bag they can carry themselves. a water bottle. a flashlight.',
    )
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    expect(await visitor.getByRole('contentinfo').getByRole('link', { name: 'Catalog data for bots' }).count()).toBe(1)
    expect(await seriousViolations(visitor)).toEqual([])
    await screenshot(visitor, 'readme/content-page')
    copyFileSync(
      path.join(SCREENSHOTS, 'readme', 'content-page.png'),
      path.join(import.meta.dir, '..', '..', 'site', 'screenshots', 'content-page.png'),
    )
    await visitor.close()
  })

  it('shows hostile Markdown as inert text, links a page for both units from the menu and lists it in the sitemap', async () => {
    const res = await suite.s.req('POST', '/api/admin/pages', {
      cookie: await suite.s.signIn(akela.email),
      json: { slug: 'faq', title: 'FAQ', body: HOSTILE, unit: 'both', published: true },
    })
    expect(res.status).toBe(201)
    const page = await visit('/')
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'FAQ' }).click()
    await page.waitForURL(`${suite.s.url}/pages/faq/`)
    const main = page.getByRole('main')
    await main.getByText('<script>window.pwned = 1</script>').waitFor()
    expect(await main.locator('script, img, iframe').count()).toBe(0)
    expect(await main.getByRole('link').count()).toBe(0)
    expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined()
    expect(await seriousViolations(page)).toEqual([])
    const sitemap = (await suite.s.req('GET', '/sitemap.xml')).text
    expect(sitemap).toContain('/pages/faq/</loc>')
    expect(sitemap).toContain('/pages/what-to-bring/</loc>')
    await page.close()
  })
})

describe('the unit page at 375 px', () => {
  it("names the leaders (an email only once ticked), the unit's pages, the next three events and the subscribe links", async () => {
    const account = await suite.signedIn(baloo.email, '/admin/account/')
    const tick = account.getByLabel('Show my email on the public unit page')
    await tick.check()
    await account.getByText(`Your email (${baloo.email}) shows on the unit page`).waitFor()
    await account.close()

    const page = await visit('/units/pack/')
    const leaders = page.getByRole('region', { name: 'Who to ask' }).getByRole('listitem')
    expect(await leaders.allTextContents()).toEqual(['Akela Avery, Cubmaster', `Baloo Brook, Den leader · ${baloo.email}`])
    expect(await page.getByText(akela.email).count()).toBe(0)
    await page.getByRole('navigation', { name: 'About the pack' }).getByRole('link', { name: 'What to bring' }).waitFor()
    expect(await page.locator('[data-event]').allTextContents()).toEqual([
      expect.stringContaining('Pack hike'),
      expect.stringContaining('Pinewood derby'),
      expect.stringContaining('Family campout'),
    ])
    await page.getByRole('link', { name: 'Subscribe' }).waitFor()
    expect(await page.getByRole('link', { name: 'Subscribe' }).getAttribute('href')).toEndWith('/calendar/pack.ics')
    expect(await page.content()).not.toContain('Sammy')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })
})
