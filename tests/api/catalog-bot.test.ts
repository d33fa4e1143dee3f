// The worked example bot of docs/catalog.md, run against the service on a real port: every request it makes is
// answered as the doc says; and the doc shows the example's file as it is, so the two never drift apart.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CatalogBot } from '../fixtures/catalog-bot.ts'
import { startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-bot-'))
let s: TestServer
/** The line in docs/catalog.md that the example's code block follows. */
const MARK = '<!-- tests/fixtures/catalog-bot.ts, verbatim: tests/api/catalog-bot.test.ts checks it -->'

const released = (variant: string, confirmed = true) => ({ variant, status: 'released', released_at: '2026-09-01', confirmed })
const robots = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ base_name: `Robot ${i + 1}`, row_name: 'Robots', variants: [released('Default')] }))

async function season(name: string, sprites: object[]) {
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ season: name, game_mode: 'br', sprites }))
  expect(await s.catalog!.loadFile(`${name}.json`)).toBe(true)
}

beforeAll(async () => {
  s = await startServer({}, { catalogDir: dir })
  s.catalog!.stop()
  // More than one page of 500 in c8s1, so the full sync follows a cursor.
  await season('c8s1', [
    { base_name: 'Snow Owl', row_name: 'Birds', variants: [released('Default'), released('Gold', false)] },
    ...robots(600),
  ])
  await season('c8s2', [{ base_name: 'Barn Owl', row_name: 'Birds', variants: [released('Default')] }])
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('the example bot in docs/catalog.md', () => {
  it('is shown in the doc exactly as the file the test runs', () => {
    const doc = readFileSync(path.join(import.meta.dir, '../../docs/catalog.md'), 'utf8')
    const code = readFileSync(path.join(import.meta.dir, '../fixtures/catalog-bot.ts'), 'utf8')
    const shown = doc.split(`${MARK}\n\n\`\`\`ts\n`)[1]?.split('\n```\n')[0]
    expect(shown === undefined ? 'no example block after the marker' : `${shown}\n`).toBe(code)
  })

  it('syncs in full with pages, then revalidates every page with its ETag', async () => {
    const bot = new CatalogBot(s.url)
    await bot.fullSync()
    expect(bot.variants.size).toBe(603)
    expect(bot.notModified).toBe(0)
    await bot.fullSync()
    // The season list and c8s1's two pages and c8s2's one: all 304.
    expect(bot.notModified).toBe(4)
    expect(bot.variants.size).toBe(603)
  })

  it('syncs incrementally with /changes: what changed and what was removed since', async () => {
    const bot = new CatalogBot(s.url)
    await bot.fullSync()
    const synced = Date.now()
    while (Date.now() <= synced) await Bun.sleep(1)
    await season('c8s2', [{ base_name: 'Barn Owl', row_name: 'Birds', variants: [released('Default'), released('Silver')] }])
    await season('c8s1', [{ base_name: 'Snow Owl', row_name: 'Birds', variants: [released('Default'), released('Gold', false)] }])
    expect(await bot.syncChanges()).toEqual({ updated: 1, removed: 600 })
    expect([...bot.variants.values()].map((v) => `${v.season} ${v.base_name}/${v.variant}`).sort()).toEqual([
      'c8s1 Snow Owl/Default',
      'c8s1 Snow Owl/Gold',
      'c8s2 Barn Owl/Default',
      'c8s2 Barn Owl/Silver',
    ])
    expect(await bot.syncChanges()).toEqual({ updated: 0, removed: 0 })
  })

  it('offers autocomplete choices from every season, and searches', async () => {
    const bot = new CatalogBot(s.url)
    const choices = await bot.choices('OWL')
    expect(choices.map((c) => c.name)).toEqual([
      'Barn Owl (Default, c8s2)',
      'Barn Owl (Silver, c8s2)',
      'Snow Owl (Default, c8s1)',
      'Snow Owl (Gold, c8s1)',
    ])
    expect(choices[0].value).toMatch(/^c8s2-/)
    expect((await bot.search('snow owl')).map((v) => v.variant)).toEqual(['Default', 'Gold'])
  })
})
