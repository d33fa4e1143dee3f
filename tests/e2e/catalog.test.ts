// The public catalog pages at bot scale: seasons listed, a season a page of variants at a time, a search within a
// season through the public API; no page over 500 KB with 100,000 variants; accessible at 375 px.
import { afterAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generatedSeason } from '../bench/catalog-data.ts'
import { browserSuite, PHONE, seriousViolations } from './browser.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-pages-'))
cpSync(path.join(import.meta.dir, '..', '..', 'catalog', 'c6s3.json'), path.join(dir, 'c6s3.json'))
writeFileSync(path.join(dir, 'c9s9.json'), JSON.stringify(generatedSeason(100_000)))
const suite = browserSuite(undefined, { catalogDir: dir })
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const phonePage = () => suite.browser.newPage({ viewport: PHONE, bypassCSP: true })

describe('the catalog pages with 100,000 variants', () => {
  it('keeps every page under 500 KB, with a page for every 500 variants', () => {
    const root = path.join(suite.s.site!.currentDir()!, 'catalog')
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'))
    const sizes = files.map((f) => [f, statSync(path.join(root, f)).size] as const)
    expect(sizes.filter(([, size]) => size > 500 * 1024)).toEqual([])
    // /catalog/, c6s3, and c9s9's 200 pages (its first on the season page).
    expect(files.length).toBe(1 + 1 + 200)
    expect(Math.max(...sizes.map(([, size]) => size))).toBeGreaterThan(50 * 1024)
  })

  it('lists the seasons with their counts, and leads to a season grouped by row and sprite', async () => {
    const page = await phonePage()
    await page.goto(`${suite.s.url}/catalog/`)
    const c9s9 = page.getByRole('row', { name: /Season c9s9/ })
    expect(await c9s9.textContent()).toContain('100,000')
    expect(await seriousViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await page.getByRole('link', { name: 'Season c6s3' }).click()
    await page.getByRole('heading', { name: 'Season c6s3', level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'Speedway' }).first().waitFor()
    const row = page.getByRole('row', { name: /Turbo Beetle Chrome/ })
    expect(await row.textContent()).toContain('racing')
    expect(await row.textContent()).toContain('released')
    await page.close()
  })

  it('pages through a big season: the list of pages by row, then a page with its neighbours', async () => {
    const page = await phonePage()
    await page.goto(`${suite.s.url}/catalog/c9s9/`)
    await page.getByRole('heading', { name: 'Page 1 of 200' }).waitFor()
    const pages = page.getByRole('navigation', { name: 'Pages of season c9s9' })
    expect(await pages.getByRole('listitem').count()).toBe(200)
    expect(await seriousViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await pages.getByRole('link', { name: 'Page 2', exact: true }).click()
    await page.getByRole('heading', { name: 'Season c9s9, page 2 of 200' }).waitFor()
    // Variants 500 to 999 in file order: sprites 100 to 199.
    await page.getByRole('row', { name: /Sprite 100 Default/ }).waitFor()
    expect(await page.getByRole('row', { name: /Sprite 99 / }).count()).toBe(0)
    await page.getByRole('link', { name: 'Next page (3)' }).click()
    await page.getByRole('heading', { name: 'Season c9s9, page 3 of 200' }).waitFor()
    await page.getByRole('link', { name: 'Previous page (2)' }).click()
    await page.getByRole('heading', { name: 'Season c9s9, page 2 of 200' }).waitFor()
    await page.close()
  })

  it('searches within a season through the public API, and pages the matches, under the site CSP', async () => {
    const page = await suite.browser.newPage({ viewport: PHONE })
    const refused: string[] = []
    page.on('console', (m) => m.type() === 'error' && refused.push(m.text()))
    await page.goto(`${suite.s.url}/catalog/c6s3/`)
    await page.getByLabel('Search season c6s3').fill('turbo beetle')
    await page.getByRole('button', { name: 'Search' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: /\d+ match/ })
      .waitFor()
    const match = page
      .getByRole('region', { name: 'Matches' })
      .getByRole('row', { name: /Turbo Beetle/ })
      .first()
    expect(await match.textContent()).toContain('c6s3')

    await page.goto(`${suite.s.url}/catalog/c9s9/`)
    await page.getByLabel('Search season c9s9').fill('sprite 12')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('status').filter({ hasText: '50 matches, more below.' }).waitFor()
    await page.getByRole('button', { name: 'More matches' }).click()
    await page.getByRole('status').filter({ hasText: '100 matches' }).waitFor()
    const seasons = await page.getByRole('region', { name: 'Matches' }).locator('tbody tr td:first-child').allTextContents()
    expect(new Set(seasons)).toEqual(new Set(['c9s9']))
    await page.getByLabel('Search season c9s9').fill('no such name here')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('status').filter({ hasText: 'No matches.' }).waitFor()
    expect(refused).toEqual([])
    await page.close()
    // With the matches shown: axe (which needs the CSP bypassed to be injected).
    const checked = await phonePage()
    await checked.goto(`${suite.s.url}/catalog/`)
    await checked.getByLabel('Search every season').fill('turbo')
    await checked.getByRole('button', { name: 'Search' }).click()
    await checked
      .getByRole('status')
      .filter({ hasText: /\d+ match/ })
      .waitFor()
    expect(await seriousViolations(checked)).toEqual([])
    expect(await checked.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await checked.close()
  })
})
