// Strict, richer catalog queries: unknown and repeated parameters refused by name, filters taking several values,
// confirmed and added_since, match=ends, and many variants by id in one request.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-queries-'))
let s: TestServer

const v = (variant: string, status: string, confirmed = true) => ({
  variant,
  status,
  confirmed,
  ...(status === 'released' ? { released_at: '2026-09-01' } : {}),
})

async function season(name: string, sprites: object[]) {
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ season: name, game_mode: 'br', sprites }))
  expect(await s.catalog!.loadFile(`${name}.json`)).toBe(true)
}

const names = (rows: any[]) => rows.map((r) => `${r.season} ${r.base_name}/${r.variant}`)
const get = async (url: string) => {
  const res = await s.req('GET', url)
  expect([url, res.status]).toEqual([url, 200])
  return res.body
}

let firstLoad = ''

beforeAll(async () => {
  s = await startServer({}, { catalogDir: dir })
  s.catalog!.stop()
  await season('c7s1', [
    { base_name: 'Snow Owl', row_name: 'Birds', variants: [v('Default', 'released'), v('Gold', 'hidden', false)] },
    { base_name: 'Owlet', row_name: 'Birds', variants: [v('Default', 'unreleased')] },
    { base_name: 'Kart', row_name: 'Speedway', game_mode: 'racing', variants: [v('Default', 'released', false)] },
  ])
  firstLoad = (await get('/api/catalog/c7s1')).variants
    .map((r: any) => r.added_at)
    .sort()
    .at(-1)
  // The next season must be seen at a later moment than every row of the first.
  while (Date.now() <= Date.parse(firstLoad)) await Bun.sleep(1)
  await season('c7s2', [
    { base_name: 'Barn Owl', row_name: 'Birds', variants: [v('Default', 'released')] },
    { base_name: 'Wing', row_name: 'Kart Parts', variants: [v('Default', 'released')] },
  ])
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('unknown and repeated parameters', () => {
  it('answer 422 naming the parameter on every catalog route', async () => {
    for (const url of [
      '/api/catalog/c7s1?stauts=released',
      '/api/catalog/search?q=owl&stauts=released',
      '/api/catalog/c7s1/autocomplete?q=owl&stauts=released',
      '/api/catalog/autocomplete?q=owl&stauts=released',
      '/api/catalog/changes?stauts=released',
      '/api/catalog/variants?ids=x&stauts=released',
    ]) {
      const res = await s.req('GET', url)
      expect([url, res.status, res.body.code]).toEqual([url, 422, 'unknown_parameter'])
      expect(res.body.detail).toContain('stauts')
    }
  })

  it('are all named in one 422, each in errors', async () => {
    const res = await s.req('GET', '/api/catalog/search?stauts=released&q=owl&colour=red&stauts=hidden')
    expect([res.status, res.body.code, res.body.detail]).toEqual([
      422,
      'unknown_parameter',
      'stauts, colour: are not parameters of this request',
    ])
    expect(res.body.errors.map((e: any) => [e.field, e.code])).toEqual([
      ['stauts', 'unknown_parameter'],
      ['colour', 'unknown_parameter'],
    ])
  })

  it('refuse a single-valued parameter sent twice, and take a list parameter repeated', async () => {
    const twice = await s.req('GET', '/api/catalog/search?q=owl&q=kart')
    expect([twice.status, twice.body.code]).toEqual([422, 'repeated_parameter'])
    expect(names((await get('/api/catalog/c7s1?status=hidden&status=unreleased')).variants)).toEqual([
      'c7s1 Snow Owl/Gold',
      'c7s1 Owlet/Default',
    ])
  })
})

describe('filters', () => {
  it('take several values comma-separated, in any order, with the same answer and cursors', async () => {
    const a = await get('/api/catalog/c7s1?status=released,hidden')
    expect(names(a.variants)).toEqual(['c7s1 Snow Owl/Default', 'c7s1 Snow Owl/Gold', 'c7s1 Kart/Default'])
    expect((await get('/api/catalog/c7s1?status=hidden,released')).variants).toEqual(a.variants)
    const page = await get('/api/catalog/c7s1?status=released,hidden&limit=1')
    const next = await get(`/api/catalog/c7s1?status=hidden,released&limit=1&cursor=${page.next_cursor}`)
    expect(names(next.variants)).toEqual(['c7s1 Snow Owl/Gold'])
    expect(names((await get('/api/catalog/search?season=c7s2,c7s1&game_mode=racing')).matches)).toEqual(['c7s1 Kart/Default'])
    const bad = await s.req('GET', '/api/catalog/c7s1?status=released,gone')
    expect([bad.status, bad.body.code]).toEqual([422, 'validation_failed'])
  })

  it('confirmed=true|false keeps only confirmed or unconfirmed variants; another value is 422', async () => {
    expect(names((await get('/api/catalog/c7s1?confirmed=false')).variants)).toEqual(['c7s1 Snow Owl/Gold', 'c7s1 Kart/Default'])
    expect(names((await get('/api/catalog/search?q=owl&confirmed=false')).matches)).toEqual(['c7s1 Snow Owl/Gold'])
    expect(names((await get('/api/catalog/search?confirmed=true&season=c7s1')).matches)).toEqual([
      'c7s1 Snow Owl/Default',
      'c7s1 Owlet/Default',
    ])
    expect((await s.req('GET', '/api/catalog/c7s1?confirmed=yes')).status).toBe(422)
  })

  it('added_since keeps variants first seen after that moment; a date that is not RFC 3339 is 422', async () => {
    expect(names((await get(`/api/catalog/search?added_since=${firstLoad}`)).matches)).toEqual([
      'c7s2 Barn Owl/Default',
      'c7s2 Wing/Default',
    ])
    expect((await get(`/api/catalog/c7s1?added_since=${firstLoad}`)).variants).toEqual([])
    const before = new Date(Date.parse(firstLoad) - 3_600_000).toISOString().replace('Z', '+00:00')
    expect((await get(`/api/catalog/c7s2?added_since=${encodeURIComponent(before)}`)).variants).toHaveLength(2)
    for (const bad of ['yesterday', '2027-02-30T00:00:00Z']) {
      const res = await s.req('GET', `/api/catalog/search?added_since=${bad}`)
      expect([res.status, res.body.errors[0].field]).toEqual([422, 'added_since'])
    }
  })

  it('match=ends finds base names ending with q, beside full, starts and contains', async () => {
    expect(names((await get('/api/catalog/search?q=owl&match=ends')).matches)).toEqual([
      'c7s1 Snow Owl/Default',
      'c7s2 Barn Owl/Default',
      'c7s1 Snow Owl/Gold',
    ])
    expect(names((await get('/api/catalog/search?q=owl&match=starts')).matches)).toEqual(['c7s1 Owlet/Default'])
    expect((await s.req('GET', '/api/catalog/search?q=owl&match=middle')).status).toBe(422)
  })
})

describe('GET /api/catalog/variants?ids=', () => {
  it('answers the variants in the order asked, each once, and lists the ids that name none', async () => {
    const rows = (await get('/api/catalog/c7s1')).variants
    const [a, b] = [rows[2].id, rows[0].id]
    const body = await get(`/api/catalog/variants?ids=${a},nope,${b}&ids=${a}`)
    expect(body.variants).toEqual([rows[2], rows[0]])
    expect(body.missing).toEqual(['nope'])
    const url = `/api/catalog/variants?ids=${a},nope,${b}&ids=${a}`
    const etag = (await s.req('GET', url)).headers.get('etag')!
    const again = await s.req('GET', url, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })

  it('refuses no ids and more than 100', async () => {
    expect((await s.req('GET', '/api/catalog/variants')).status).toBe(422)
    const many = Array.from({ length: 101 }, (_, i) => `id${i}`).join(',')
    expect((await s.req('GET', `/api/catalog/variants?ids=${many}`)).status).toBe(422)
    expect((await get(`/api/catalog/variants?ids=${many.split(',').slice(0, 100).join(',')}`)).missing).toHaveLength(100)
  })
})

describe('autocomplete', () => {
  const complete = async (url: string) => (await get(url)).matches.map((r: any) => `${r.season} ${r.base_name}/${r.variant}`)

  it('ranks a base-name match above a row-name one, confirmed above unconfirmed within each', async () => {
    // Kart is unconfirmed but its base name matches; Wing is confirmed but only its row name does.
    expect(await complete('/api/catalog/c7s2/autocomplete?q=kart')).toEqual(['c7s2 Wing/Default'])
    expect(await complete('/api/catalog/autocomplete?q=kart')).toEqual(['c7s1 Kart/Default', 'c7s2 Wing/Default'])
    expect(await complete('/api/catalog/c7s1/autocomplete?q=owl')).toEqual([
      'c7s1 Owlet/Default',
      'c7s1 Snow Owl/Default',
      'c7s1 Snow Owl/Gold',
    ])
  })

  it('across seasons: the newest season first on ties, at most limit (1 to 25), folded q echoed', async () => {
    const body = await get('/api/catalog/autocomplete?q=%20OWL')
    expect(body.q).toBe('owl')
    expect(names(body.matches)).toEqual(['c7s1 Owlet/Default', 'c7s2 Barn Owl/Default', 'c7s1 Snow Owl/Default', 'c7s1 Snow Owl/Gold'])
    expect(await complete('/api/catalog/autocomplete?q=owl&limit=2')).toEqual(['c7s1 Owlet/Default', 'c7s2 Barn Owl/Default'])
    for (const bad of ['limit=0', 'limit=26', 'limit=x']) {
      const res = await s.req('GET', `/api/catalog/autocomplete?q=owl&${bad}`)
      expect([bad, res.status]).toEqual([bad, 422])
    }
    expect((await s.req('GET', '/api/catalog/autocomplete')).status).toBe(422)
    const etag = (await s.req('GET', '/api/catalog/autocomplete?q=owl')).headers.get('etag')!
    expect((await s.req('GET', '/api/catalog/autocomplete?q=owl', { headers: { 'if-none-match': etag } })).status).toBe(304)
  })

  it('across seasons follows seasons added and removed', async () => {
    await season('c7s9', [{ base_name: 'Owl Nine', row_name: 'Birds', variants: [v('Default', 'released')] }])
    expect((await complete('/api/catalog/autocomplete?q=owl')).slice(0, 2)).toEqual(['c7s9 Owl Nine/Default', 'c7s1 Owlet/Default'])
    rmSync(path.join(dir, 'c7s9.json'))
    expect(await s.catalog!.loadFile('c7s9.json')).toBe(true)
    expect(await complete('/api/catalog/autocomplete?q=owl')).not.toContain('c7s9 Owl Nine/Default')
  })
})
