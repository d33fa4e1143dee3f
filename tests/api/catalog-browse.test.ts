// The catalog for bots that page and sync: a season in pages, stable variant ids with lookup, a search across
// seasons, and the changes since a sync (updates and removals); cursors from before a reload answer 409.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { searchIndexHeld } from '../../server/catalog/browse.ts'
import { CatalogLoader } from '../../server/catalog/loader.ts'
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
  { base_name: 'Łódź Heron', row_name: 'Birds', variants: [released('Default')] },
  { base_name: 'Straße Sparrow', row_name: 'Birds', variants: [released('Default')] },
  { base_name: 'Heran', row_name: 'Birds', variants: [released('Default')] },
  { base_name: 'Heron', row_name: 'Birds', variants: [released('Default')] },
  { base_name: 'Emu', row_name: 'Hérons', variants: [released('Default')] },
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
      ...Array(6).fill('Default'),
    ])
  })

  it('refuses a bad limit or cursor (422 cursor_invalid), and a cursor used with another season or other filters (422 cursor_mismatch)', async () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=x', 'cursor=', 'cursor=abc', `cursor=${Buffer.from('[1,2,3]').toString('base64url')}`])
      expectDetail(await s.req('GET', `/api/catalog/c6s3?${q}`), 422)
    expect((await s.req('GET', '/api/catalog/c6s3?cursor=abc')).body.code).toBe('cursor_invalid')
    const cursor = encodeURIComponent((await s.req('GET', '/api/catalog/c6s3?limit=2&status=released')).body.next_cursor)
    for (const other of [
      `/api/catalog/c10s1?limit=2&status=released`,
      `/api/catalog/c6s3?limit=2`,
      `/api/catalog/c6s3?limit=2&status=hidden`,
    ]) {
      const res = await s.req('GET', `${other}&cursor=${cursor}`)
      expectDetail(res, 422)
      expect(res.body.code).toBe('cursor_mismatch')
    }
    // the page size is not a filter: another limit with the same filters goes on
    expect((await s.req('GET', `/api/catalog/c6s3?limit=3&status=released&cursor=${cursor}`)).status).toBe(200)
    expectDetail(await s.req('GET', '/api/catalog/c99s1?limit=2'), 404)
  })

  it('keeps cursors, pages and ETags across a reload of the unchanged (even reformatted) file and a restart', async () => {
    const first = await s.req('GET', '/api/catalog/c6s3?limit=2')
    const next = `/api/catalog/c6s3?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`
    expect(first.headers.get('link')).toBe(`<${next}>; rel="next"`)
    const before = await s.req('GET', next)
    const etag = before.headers.get('etag')!
    writeFileSync(path.join(dir, 'c6s3.json'), JSON.stringify({ season: 'c6s3', game_mode: 'br', sprites: c6s3 }, null, 2))
    expect(await s.catalog!.loadFile('c6s3.json')).toBe(true)
    await new CatalogLoader(s.db, dir, () => {}).loadAll() // what a restart does with the same database
    const after = await s.req('GET', next)
    expect(after.status).toBe(200)
    expect(after.body).toEqual(before.body)
    expect(after.headers.get('etag')).toBe(etag)
    expect((await s.req('GET', next, { headers: { 'if-none-match': etag } })).status).toBe(304)
    const last = await s.req('GET', '/api/catalog/c6s3?limit=7')
    expect(last.body.next_cursor).toBeNull()
    expect(last.headers.get('link')).toBeNull()
  })
})

describe('added_at and changed_at', () => {
  it('stay across reloads of an unchanged file and a restart; changed_at moves when a variant changes, added_at stays', async () => {
    const rows = async () => (await s.req('GET', '/api/catalog/c10s1')).body.variants
    const before = await rows()
    expect(before.every((v: any) => v.added_at === v.changed_at && !Number.isNaN(Date.parse(v.added_at)))).toBe(true)
    await season('c10s1', c10s1)
    await new CatalogLoader(s.db, dir, () => {}).loadAll()
    expect(await rows()).toEqual(before)
    const changed = structuredClone(c10s1)
    changed[0].variants[0] = released('Default', 'Runs fast')
    await season('c10s1', changed)
    const after = await rows()
    const nandu = (list: any[]) => list.find((v) => v.base_name === 'Nandú')
    expect(nandu(after).added_at).toBe(nandu(before).added_at)
    expect(nandu(after).changed_at > nandu(before).changed_at).toBe(true)
    expect(after.filter((v: any) => v.base_name !== 'Nandú')).toEqual(before.filter((v: any) => v.base_name !== 'Nandú'))
    // changes since a moment: only what changed after it
    const c6s3Rows = (await s.req('GET', '/api/catalog/c6s3')).body.variants
    const since = encodeURIComponent(
      [...before, ...c6s3Rows]
        .map((v: any) => v.changed_at)
        .sort()
        .at(-1),
    )
    const delta = await s.req('GET', `/api/catalog/changes?since=${since}`)
    expect(delta.body.changes.map((c: any) => c.variant.base_name)).toEqual(['Nandú'])
    expect(delta.body.next_cursor).toBeNull()
    const later = await s.req('GET', `/api/catalog/changes?since=${encodeURIComponent(delta.body.next)}`)
    expect(later.body.changes).toEqual([])
    expect(
      (await s.req('GET', `/api/catalog/changes?since=${nandu(after).changed_at.replace('T', 't').replace('Z', 'z')}`)).body.changes,
    ).toEqual([])
    await season('c10s1', c10s1)
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
  const names = (body: any) => body.matches.map((v: any) => `${v.season} ${v.base_name} ${v.variant}`)
  const find = async (q: string) => names((await s.req('GET', `/api/catalog/search?${q}`)).body)

  it('ranks a name that is the query first, folds case, accents and ø, ł, æ, ß…, and narrows by filters', async () => {
    expect(await find('q=NANDU')).toEqual(['c10s1 Nandú Default', 'c6s3 Nandu Junior Default'])
    expect(await find('q=nandú&season=c10s1')).toEqual(['c10s1 Nandú Default'])
    expect(await find('q=cafe&status=unreleased')).toEqual(['c10s1 Café Owl Mocha'])
    expect(await find('game_mode=racing')).toEqual(['c10s1 Turbo Beetle Default'])
    expect(await find('q=lodz')).toEqual(['c10s1 Łódź Heron Default'])
    expect(await find('q=STRASSE')).toEqual(['c10s1 Straße Sparrow Default'])
    expectDetail(await s.req('GET', '/api/catalog/search?limit=1001'), 422)
    expectDetail(await s.req('GET', '/api/catalog/search?game_mode=chess'), 422)
    expectDetail(await s.req('GET', '/api/catalog/search?match=fuzzy'), 422)
  })

  it('matches words in any order across base, row and variant names, and forgives one typo in longer words', async () => {
    expect(await find('q=latte%20owl')).toEqual(['c10s1 Café Owl Latte'])
    expect(await find('q=birds%20mocha')).toEqual(['c10s1 Café Owl Mocha'])
    expect(await find('q=rbot')).toEqual([]) // four letters: no typo forgiven
    expect((await find('q=rbots')).length).toBe(6) // the row Robots
    expect(await find('q=beetel')).toEqual(['c10s1 Turbo Beetle Default'])
    expect(await find('q=turbo%20beetel')).toEqual(['c10s1 Turbo Beetle Default'])
  })

  it('puts name matches before row matches: exact, prefix, word prefix, contains, then typos', async () => {
    expect(await find('q=robot&season=c6s3&limit=3')).toEqual(['c6s3 Robot 1 Default', 'c6s3 Robot 2 Default', 'c6s3 Robot 3 Default'])
    // "heron": the name "Heron" exactly, then "Łódź Heron" (a word of the name), then the row "Herons", then "Heran" (a typo)
    expect(await find('q=heron')).toEqual(['c10s1 Heron Default', 'c10s1 Łódź Heron Default', 'c10s1 Emu Default', 'c10s1 Heran Default'])
  })

  it('answers match=full, starts and contains on the base name', async () => {
    expect(await find('q=heron&match=full')).toEqual(['c10s1 Heron Default'])
    expect(await find('q=her&match=starts')).toEqual(['c10s1 Heran Default', 'c10s1 Heron Default'])
    expect(await find('q=her&match=contains')).toEqual(['c10s1 Heran Default', 'c10s1 Heron Default', 'c10s1 Łódź Heron Default'])
  })

  it('filters on row_name ignoring case and accents, pages with cursors bound to the filters, and keeps them across a reload', async () => {
    expect(await find('row_name=BIRDS&q=latte')).toEqual(['c10s1 Café Owl Latte'])
    expect(await find('row_name=h%C3%A9rons')).toEqual(['c10s1 Emu Default'])
    expect((await allPages('/api/catalog/search?row_name=robots&limit=4', 'matches')).length).toBe(6)
    const first = await s.req('GET', '/api/catalog/search?q=robot&limit=2')
    const next = `/api/catalog/search?q=robot&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`
    expect(first.headers.get('link')).toBe(`<${next}>; rel="next"`)
    const before = await s.req('GET', next)
    await season('c6s3', c6s3)
    const after = await s.req('GET', next)
    expect(after.body).toEqual(before.body)
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'))
    const other = await s.req('GET', `/api/catalog/search?q=robot&season=c6s3&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`)
    expectDetail(other, 422)
    expect(other.body.code).toBe('cursor_mismatch')
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
        // the newer form of the same paging: next_cursor and the Link to it while more wait
        expect(res.body.next_cursor).toBe(res.body.more ? res.body.next : null)
        if (res.body.more) expect(res.headers.get('link')).toContain(`cursor=${encodeURIComponent(res.body.next)}`)
        out.push(...res.body.changes)
        since = res.body.next
        if (!res.body.more) return out
      }
    }
    const everything = await sync()
    expect(everything.length).toBe(17)
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
    for (const impossible of ['2027-02-30T10:00:00Z', '2027-04-31T00:00:00Z', '2026-11-25T24:00:00Z', '2026-11-25T10:00Z', '2026-11-25'])
      expectDetail(await s.req('GET', `/api/catalog/changes?since=${impossible}`), 422)
    const page = await s.req('GET', '/api/catalog/changes?limit=2')
    const byCursor = await s.req('GET', `/api/catalog/changes?limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`)
    const bySince = await s.req('GET', `/api/catalog/changes?limit=2&since=${encodeURIComponent(page.body.next)}`)
    expect(byCursor.body).toEqual(bySince.body)
  })

  it('answers with an ETag and 304 like the season route', async () => {
    const first = await s.req('GET', '/api/catalog/changes')
    const etag = first.headers.get('etag')!
    expect(etag).toBeTruthy()
    expect((await s.req('GET', '/api/catalog/changes', { headers: { 'if-none-match': etag } })).status).toBe(304)
  })
})

describe('the search index', () => {
  it('is built by the load, before the first search asks for it', async () => {
    const loader = new CatalogLoader(s.db, dir, () => {})
    await loader.loadAll()
    expect(loader.version).toBeGreaterThan(0)
    expect(searchIndexHeld(s.db, loader.version)).toBe(true)
  })
})
