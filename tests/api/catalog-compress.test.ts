// Every catalog answer compressed as Accept-Encoding asks (RFC 9110 §12.5.3): the season whole and in pages, search,
// changes, autocomplete, one variant and the season list, each with a strong ETag per coding, 304 per coding, Vary,
// HEAD; and the answer cache bounded in bytes, the least recently used answer leaving first.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { catalogCache } from '../../server/catalog/http.ts'
import { generatedSeason } from '../bench/catalog-data.ts'
import { eventually, startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-compress-'))
let s: TestServer
beforeAll(async () => {
  writeFileSync(path.join(dir, 'c9s9.json'), JSON.stringify(generatedSeason(500)))
  s = await startServer({}, { catalogDir: dir })
})
afterAll(async () => {
  catalogCache.bound()
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})
afterEach(() => catalogCache.bound())

/** The body as sent, not decompressed. */
const raw = async (p: string, headers: Record<string, string> = {}, method = 'GET') => {
  const res = await fetch(`${s.url}${p}`, { method, headers, decompress: false } as RequestInit)
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const DECODE: Record<string, (b: Uint8Array<ArrayBuffer>) => Uint8Array> = {
  gzip: (b) => Bun.gunzipSync(b),
  br: (b) => zlib.brotliDecompressSync(b),
}

let variantId = ''
const ROUTES = () => [
  '/api/catalog',
  '/api/catalog/c9s9',
  '/api/catalog/c9s9?limit=100',
  '/api/catalog/c9s9?limit=5&status=released',
  '/api/catalog/search?q=sprite&limit=100',
  '/api/catalog/changes?limit=100',
  '/api/catalog/changes',
  '/api/catalog/c9s9/autocomplete?q=sprite&limit=25',
  `/api/catalog/variants/${variantId}`,
]

describe('every catalog route', () => {
  beforeAll(async () => {
    variantId = JSON.parse(text((await raw('/api/catalog/c9s9?limit=1')).bytes)).variants[0].id
  })

  it('answers br and gzip as asked, the same JSON as identity, with Vary and a tag of its own per coding', async () => {
    for (const route of ROUTES()) {
      const plain = await raw(route, { 'accept-encoding': 'identity' })
      expect([route, plain.res.status, plain.res.headers.get('content-encoding')]).toEqual([route, 200, null])
      expect(plain.res.headers.get('vary')).toBe('Accept-Encoding')
      const tags = new Set([plain.res.headers.get('etag')])
      for (const coding of ['br', 'gzip']) {
        const { res, bytes } = await raw(route, { 'accept-encoding': coding })
        expect([route, res.headers.get('content-encoding')]).toEqual([route, coding])
        expect(res.headers.get('vary')).toBe('Accept-Encoding')
        expect(res.headers.get('link')).toBe(plain.res.headers.get('link'))
        expect(text(DECODE[coding](bytes))).toBe(text(plain.bytes))
        tags.add(res.headers.get('etag'))
      }
      expect([route, tags.size]).toEqual([route, 3])
    }
  })

  it('compresses a page of JSON to a fraction of its size', async () => {
    const plain = await raw('/api/catalog/c9s9?limit=500', { 'accept-encoding': 'identity' })
    const br = await raw('/api/catalog/c9s9?limit=500', { 'accept-encoding': 'br' })
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 5)
  })

  it('answers 304 to the tag of the coding it would send, and 200 to the tag of another', async () => {
    for (const route of ROUTES())
      for (const [coding, other] of [
        ['br', 'gzip'],
        ['gzip', 'identity'],
        ['identity', 'br'],
      ]) {
        const tag = (await raw(route, { 'accept-encoding': coding })).res.headers.get('etag')!
        const otherTag = (await raw(route, { 'accept-encoding': other })).res.headers.get('etag')!
        const hit = await raw(route, { 'accept-encoding': coding, 'if-none-match': `W/${tag}` })
        expect([route, coding, hit.res.status, hit.bytes.length]).toEqual([route, coding, 304, 0])
        expect(hit.res.headers.get('etag')).toBe(tag)
        expect(hit.res.headers.get('vary')).toBe('Accept-Encoding')
        const miss = await raw(route, { 'accept-encoding': coding, 'if-none-match': otherTag })
        expect([route, coding, miss.res.status]).toEqual([route, coding, 200])
      }
  })

  it('keeps the Link to the next page on a 304', async () => {
    const first = await raw('/api/catalog/c9s9?limit=100', { 'accept-encoding': 'br' })
    const link = first.res.headers.get('link')
    expect(link).toContain('rel="next"')
    const again = await raw('/api/catalog/c9s9?limit=100', { 'accept-encoding': 'br', 'if-none-match': first.res.headers.get('etag')! })
    expect(again.res.status).toBe(304)
    expect(again.res.headers.get('link')).toBe(link)
  })

  it('weighs q-values, and sends identity when identity;q=0 leaves nothing else it can send', async () => {
    const cases: [string, string | null][] = [
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['gzip;q=0.5, br', 'br'],
      ['identity;q=0, gzip', 'gzip'],
      ['identity;q=0, br;q=0.1', 'br'],
      ['br;q=0, gzip;q=0', null],
      ['identity;q=0', null],
      ['identity', null],
    ]
    for (const route of ['/api/catalog/c9s9?limit=100', '/api/catalog/search?q=sprite', '/api/catalog/changes?limit=10'])
      for (const [accept, coding] of cases) {
        const { res } = await raw(route, { 'accept-encoding': accept })
        expect([route, accept, res.status, res.headers.get('content-encoding')]).toEqual([route, accept, 200, coding])
      }
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const route of ROUTES())
      for (const coding of ['br', 'gzip', 'identity']) {
        const get = await raw(route, { 'accept-encoding': coding })
        const head = await raw(route, { 'accept-encoding': coding }, 'HEAD')
        expect([route, coding, head.res.status, head.bytes.length]).toEqual([route, coding, 200, 0])
        for (const field of ['etag', 'vary', 'content-encoding', 'content-type'])
          expect([route, field, head.res.headers.get(field)]).toEqual([route, field, get.res.headers.get(field)])
      }
  })
})

describe('the answer cache', () => {
  /** A page's br form, which the cache keeps; its identity tag names it in the cache. */
  const page = async (n: number) => {
    const { res } = await raw(`/api/catalog/c9s9?limit=${50 + n}`, { 'accept-encoding': 'br' })
    expect(res.status).toBe(200)
    return res.headers.get('etag')!.replace('-br"', '"')
  }

  it('stays within its bound in bytes, dropping the least recently used answer first', async () => {
    const size = (await raw('/api/catalog/c9s9?limit=60', { 'accept-encoding': 'br' })).bytes.length
    // Room for about four pages of this size.
    catalogCache.bound(size * 4.5)
    expect(catalogCache.use().bytes).toBeLessThanOrEqual(size * 4.5)
    const first = await page(1)
    const second = await page(2)
    const third = await page(3)
    expect([first, second, third].map(catalogCache.holds)).toEqual([true, true, true])
    await page(1)
    for (let n = 4; n <= 6; n++) await page(n)
    // The second page was the least recently used; the first was asked for again.
    expect(catalogCache.holds(second)).toBe(false)
    expect(catalogCache.holds(first)).toBe(true)
    expect(catalogCache.use().bytes).toBeLessThanOrEqual(size * 4.5)
    for (let n = 1; n <= 6; n++) await raw(`/api/catalog/c9s9?limit=${50 + n}`, { 'accept-encoding': 'gzip' })
    expect(catalogCache.use().bytes).toBeLessThanOrEqual(size * 4.5)
  })

  it('keeps only the compressed forms of a page: its JSON is made again by each request', async () => {
    const before = catalogCache.use().bytes
    const plain = await raw('/api/catalog/c9s9?limit=77', { 'accept-encoding': 'identity' })
    expect(plain.bytes.length).toBeGreaterThan(10_000)
    expect(catalogCache.use().bytes).toBe(before)
    const br = await raw('/api/catalog/c9s9?limit=77', { 'accept-encoding': 'br' })
    expect(catalogCache.use().bytes).toBe(before + br.bytes.length)
  })

  it('answers an answer too big to keep, compressed, and 304 from the tags it keeps', async () => {
    catalogCache.bound(20_000)
    const whole = await raw('/api/catalog/c9s9', { 'accept-encoding': 'gzip' })
    expect(whole.res.status).toBe(200)
    expect(JSON.parse(text(Bun.gunzipSync(whole.bytes))).variants.length).toBe(500)
    expect(catalogCache.use().bytes).toBeLessThanOrEqual(20_000)
    const again = await raw('/api/catalog/c9s9', { 'accept-encoding': 'gzip', 'if-none-match': whole.res.headers.get('etag')! })
    expect(again.res.status).toBe(304)
  })

  it('answers the new content once the season changes', async () => {
    const before = await raw('/api/catalog/c9s9', { 'accept-encoding': 'br' })
    const pageBefore = await raw('/api/catalog/c9s9?limit=10', { 'accept-encoding': 'br' })
    writeFileSync(path.join(dir, 'c9s9.json'), JSON.stringify(generatedSeason(400)))
    await eventually(
      async () => (await raw('/api/catalog/c9s9', { 'accept-encoding': 'br' })).res.headers.get('etag') !== before.res.headers.get('etag'),
    )
    const after = await raw('/api/catalog/c9s9', { 'accept-encoding': 'br', 'if-none-match': before.res.headers.get('etag')! })
    expect(after.res.status).toBe(200)
    expect(JSON.parse(text(zlib.brotliDecompressSync(after.bytes))).variants.length).toBe(400)
    const pageAfter = await raw('/api/catalog/c9s9?limit=10', {
      'accept-encoding': 'br',
      'if-none-match': pageBefore.res.headers.get('etag')!,
    })
    expect(pageAfter.res.status).toBe(304)
  })
})
