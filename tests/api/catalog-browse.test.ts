// The catalog for bots that page and sync: a season in pages, stable variant ids with lookup, a search across
// seasons, and the changes since a sync (updates and removals); cursors from before a reload answer 409.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expectDetail, startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-browse-'))
let s: TestServer

type Variant = { variant: string; status: 'released' | 'hidden' | 'unreleased'; released_at?: string; notes?: string }
type Sprite = { base_name: string; row_name: string; game_mode?: string; variants: Variant[] }
const released = (variant: string, notes?: string): Variant => ({
  variant,
  status: 'released',
  released_at: '2026-09-01',
  ...(notes ? { notes } : {}),
})

/** Writes a season file and loads it as the service does when a file changes. */
async function season(name: string, sprites: Sprite[], game_mode = 'br') {
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ season: name, game_mode, sprites }))
  expect(await s.catalog!.loadFile(`${name}.json`)).toBe(true)
}

const c10s1: Sprite[] = [
  { base_name: 'Nandú', row_name: 'Birds', variants: [released('Default')] },
  {
    base_name: 'Café Owl',
    row_name: 'Birds',
    variants: [released('Plain'), released('Latte'), { variant: 'Mocha', status: 'unreleased' }],
  },
  { base_name: 'Turbo Beetle', row_name: 'Speedway', game_mode: 'racing', variants: [released('Default')] },
]
const c6s3: Sprite[] = [
  { base_name: 'Nandu Junior', row_name: 'Birds', variants: [released('Default')] },
  ...Array.from({ length: 6 }, (_, i) => ({ base_name: `Robot ${i + 1}`, row_name: 'Robots', variants: [released('Default')] })),
]

beforeAll(async () => {
  s = await startServer({}, { catalogDir: dir })
  s.catalog!.stop() // these tests load each file themselves, at the moment they choose
  await season('c10s1', c10s1)
  await season('c6s3', c6s3)
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function allPages(first: string, key: 'variants' | 'matches') {
  const seen: any[] = []
  let url: string | null = first
  while (url) {
    const res = await s.req('GET', url)
    expect(res.status).toBe(200)
    seen.push(...res.body[key])
    url = res.body.next_cursor ? `${first}&cursor=${encodeURIComponent(res.body.next_cursor)}` : null
  }
  return seen
}

describe('GET /api/catalog/{season} with limit and cursor', () => {
  it('pages through the season in file order, the pages together the whole season; without them the whole season as before', async () => {
    const whole = await s.req('GET', '/api/catalog/c6s3')
    expect(whole.body.next_cursor).toBeUndefined()
    expect(whole.body.variants.length).toBe(7)
    const first = await s.req('GET', '/api/catalog/c6s3?limit=3')
    expect(first.body.variants.length).toBe(3)
    expect(typeof first.body.next_cursor).toBe('string')
    expect(await allPages('/api/catalog/c6s3?limit=3', 'variants')).toEqual(whole.body.variants)
    const last = await s.req('GET', '/api/catalog/c6s3?limit=7')
    expect(last.body.next_cursor).toBeNull()
    expect((await allPages('/api/catalog/c10s1?status=released&limit=1', 'variants')).map((v) => v.variant)).toEqual([
      'Default',
      'Plain',
      'Latte',
      'Default',
    ])
  })

  it('refuses a bad limit or cursor (422) and a cursor from before the season was reloaded (409)', async () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=x', 'cursor=', 'cursor=abc', `cursor=${Buffer.from('[1,2,3]').toString('base64url')}`])
      expectDetail(await s.req('GET', `/api/catalog/c6s3?${q}`), 422)
    const page = await s.req('GET', '/api/catalog/c6s3?limit=2')
    await season('c6s3', c6s3) // reloaded (same content)
    const stale = await s.req('GET', `/api/catalog/c6s3?limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`)
    expectDetail(stale, 409)
    expect(stale.body.detail).toContain('start again')
    expectDetail(await s.req('GET', '/api/catalog/c99s1?limit=2'), 404)
  })
})

describe('variant ids', () => {
  it('are stable across reloads and find the variant; a removed variant is 404', async () => {
    const before = (await s.req('GET', '/api/catalog/c10s1')).body.variants
    await season('c10s1', c10s1)
    const after = (await s.req('GET', '/api/catalog/c10s1')).body.variants
    expect(after.map((v: any) => v.id)).toEqual(before.map((v: any) => v.id))
    expect(new Set(after.map((v: any) => v.id)).size).toBe(after.length)
    const owl = after.find((v: any) => v.base_name === 'Café Owl' && v.variant === 'Latte')
    const found = await s.req('GET', `/api/catalog/variants/${owl.id}`)
    expect(found.status).toBe(200)
    expect(found.body).toEqual(owl)
    expectDetail(await s.req('GET', '/api/catalog/variants/c10s1-nothing-here'), 404)
  })
})

describe('GET /api/catalog/search', () => {
  it('finds names across seasons ignoring case and accents, in season order, with filters and pages', async () => {
    const names = (body: any) => body.matches.map((v: any) => `${v.season} ${v.base_name} ${v.variant}`)
    const nandu = await s.req('GET', '/api/catalog/search?q=NANDU')
    expect(names(nandu.body)).toEqual(['c6s3 Nandu Junior Default', 'c10s1 Nandú Default'])
    expect(names((await s.req('GET', '/api/catalog/search?q=nandú&season=c10s1')).body)).toEqual(['c10s1 Nandú Default'])
    expect(names((await s.req('GET', '/api/catalog/search?q=cafe&status=unreleased')).body)).toEqual(['c10s1 Café Owl Mocha'])
    expect(names((await s.req('GET', '/api/catalog/search?game_mode=racing')).body)).toEqual(['c10s1 Turbo Beetle Default'])
    expect(names((await s.req('GET', '/api/catalog/search?row_name=Birds&q=latte')).body)).toEqual(['c10s1 Café Owl Latte'])
    expect((await allPages('/api/catalog/search?row_name=Robots&limit=4', 'matches')).length).toBe(6)
    expectDetail(await s.req('GET', '/api/catalog/search?limit=501'), 422)
    expectDetail(await s.req('GET', '/api/catalog/search?game_mode=chess'), 422)
  })
})

describe('GET /api/catalog/changes', () => {
  it('lists every variant first, then only what a reload changed or removed, and tombstones for a removed season', async () => {
    let since: string | undefined
    const sync = async (limit = 5) => {
      const out: any[] = []
      for (;;) {
        const res = await s.req('GET', `/api/catalog/changes?limit=${limit}${since ? `&since=${encodeURIComponent(since)}` : ''}`)
        expect(res.status).toBe(200)
        out.push(...res.body.changes)
        since = res.body.next
        if (!res.body.more) return out
      }
    }
    const everything = await sync()
    expect(everything.length).toBe(12)
    expect(everything.every((c) => c.change === 'updated' && c.variant.id === c.id)).toBe(true)
    expect(await sync()).toEqual([]) // nothing new

    const changed = structuredClone(c10s1)
    changed[1].variants[1] = released('Latte', 'Now with foam') // changed
    changed[1].variants.splice(0, 1) // Plain removed
    changed.push({ base_name: 'Kiwi', row_name: 'Birds', variants: [released('Default')] }) // added
    await season('c10s1', changed)
    const delta = await sync()
    expect(delta.map((c) => `${c.change} ${c.variant?.base_name ?? ''} ${c.variant?.variant ?? c.id}`).sort()).toEqual(
      ['updated Café Owl Latte', 'updated Kiwi Default', `removed  ${everything.find((c) => c.variant.variant === 'Plain').id}`].sort(),
    )
    expect(delta.find((c) => c.change === 'updated' && c.variant.variant === 'Latte').variant.notes).toBe('Now with foam')

    rmSync(path.join(dir, 'c6s3.json'))
    await s.catalog!.loadFile('c6s3.json')
    const gone = await sync()
    expect(gone.length).toBe(7)
    expect(gone.every((c) => c.change === 'removed' && c.season === 'c6s3' && c.variant === null)).toBe(true)
    await season('c6s3', c6s3) // back again: updated, no longer removed
    expect((await sync()).map((c) => c.change)).toEqual(Array(7).fill('updated'))
    expectDetail(await s.req('GET', '/api/catalog/changes?since=nonsense'), 422)
  })

  it('answers with an ETag and 304 like the season route', async () => {
    const first = await s.req('GET', '/api/catalog/changes')
    const etag = first.headers.get('etag')!
    expect(etag).toBeTruthy()
    expect((await s.req('GET', '/api/catalog/changes', { headers: { 'if-none-match': etag } })).status).toBe(304)
  })
})
