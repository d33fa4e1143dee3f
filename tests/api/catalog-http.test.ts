// The bot's catalog answers as HTTP: conditional requests and content codings (RFC 9110), and autocomplete from its
// index, ignoring case and accents, rebuilt when the season changes.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { autocompleteIndex } from '../../server/catalog/autocomplete.ts'
import { negotiate } from '../../server/catalog/http.ts'
import { noneMatch } from '../../server/http/versions.ts'
import { eventually, startServer, type TestServer } from '../helpers.ts'

const variant = (name: string, confirmed: boolean) => ({ variant: name, status: 'released', released_at: '2026-06-05', confirmed })
const sprite = (base_name: string, row_name: string, ...variants: ReturnType<typeof variant>[]) => ({ base_name, row_name, variants })
const SPRITES = [
  sprite('Nandú', 'Birds', variant('Default', true)),
  sprite('Nandu', 'Birds', variant('Default', false)),
  sprite('Café', 'Kitchen', variant('Default', true)),
  sprite('Bear Café Latte', 'Kitchen', variant('Default', true)),
  sprite('Cafeteria Cat', 'Kitchen', variant('Golden', false), variant('Default', false)),
  sprite('Brown Cafe Mole', 'Kitchen', variant('Shadow', false), variant('Default', true)),
]
const season = (name: string, sprites: object[]) => JSON.stringify({ season: name, game_mode: 'br', sprites })

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-http-'))
let s: TestServer
beforeAll(async () => {
  cpSync(path.join(import.meta.dir, '..', '..', 'catalog', 'c6s3.json'), path.join(dir, 'c6s3.json'))
  writeFileSync(path.join(dir, 'c42s1.json'), season('c42s1', SPRITES))
  writeFileSync(path.join(dir, 'c42s2.json'), season('c42s2', SPRITES))
  // Over 64 KB as JSON, so its compressed forms are made off the event loop.
  const many = Array.from({ length: 400 }, (_, i) => sprite(`Sprite ${i}`, `Row ${i % 7}`, variant('Default', i % 2 === 0)))
  writeFileSync(path.join(dir, 'c42s3.json'), season('c42s3', many))
  s = await startServer({}, { catalogDir: dir })
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** A request with these headers, the body left as sent (not decompressed). */
const raw = async (p: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${s.url}${p}`, { headers, decompress: false } as RequestInit)
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}
const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes))
const DECODE: Record<string, (b: Uint8Array<ArrayBuffer>) => Uint8Array> = {
  gzip: (b) => Bun.gunzipSync(b),
  br: (b) => zlib.brotliDecompressSync(b),
  zstd: (b) => Bun.zstdDecompressSync(b),
}
const SEASON = '/api/catalog/c6s3'
const identityTag = async () => (await raw(SEASON, { 'accept-encoding': 'identity' })).res.headers.get('etag')!

describe('GET /api/catalog/:season: If-None-Match', () => {
  it('answers 304 to the weak form of the current tag', async () => {
    const tag = await identityTag()
    const res = await s.req('GET', SEASON, { headers: { 'if-none-match': `W/${tag}`, 'accept-encoding': 'identity' } })
    expect(res.status).toBe(304)
    expect(res.text).toBe('')
    expect(res.headers.get('etag')).toBe(tag)
  })

  it('answers 304 to a list holding the tag, weak or strong, and to *', async () => {
    const tag = await identityTag()
    for (const value of [`"other", W/${tag}`, `W/"x,y" ,${tag}`, `"a",  "b",W/${tag}`, '*'])
      expect((await s.req('GET', SEASON, { headers: { 'if-none-match': value, 'accept-encoding': 'identity' } })).status).toBe(304)
  })

  it('answers 200 to tags that do not match, including the tag of another coding', async () => {
    const tag = await identityTag()
    const gzipTag = (await raw(SEASON, { 'accept-encoding': 'gzip' })).res.headers.get('etag')!
    for (const value of ['"other"', 'W/"other", "again"', tag.slice(1, -1), `${tag.slice(0, -1)}x"`, 'W/', '"unclosed', gzipTag])
      expect((await s.req('GET', SEASON, { headers: { 'if-none-match': value, 'accept-encoding': 'identity' } })).status).toBe(200)
  })

  it('gives each representation its own strong tag, matched only for that representation', async () => {
    const tags = new Set<string>()
    for (const coding of ['identity', 'gzip', 'br', 'zstd']) {
      const tag = (await raw(SEASON, { 'accept-encoding': coding })).res.headers.get('etag')!
      expect(tag).toMatch(/^"[\w-]+"$/)
      tags.add(tag)
      expect((await raw(SEASON, { 'accept-encoding': coding, 'if-none-match': tag })).res.status).toBe(304)
    }
    expect(tags.size).toBe(4)
    const brTag = (await raw(SEASON, { 'accept-encoding': 'br' })).res.headers.get('etag')!
    expect((await raw(SEASON, { 'accept-encoding': 'gzip', 'if-none-match': brTag })).res.status).toBe(200)
  })

  it('reads If-None-Match lists as RFC 9110 writes them', () => {
    expect(noneMatch('W/"a"', '"a"')).toBe(true)
    expect(noneMatch(' "b" , W/"a" ', '"a"')).toBe(true)
    expect(noneMatch('"a,b", "c"', '"c"')).toBe(true)
    expect(noneMatch('"a,b"', '"b"')).toBe(false)
    expect(noneMatch('*', '"a"')).toBe(true)
    expect(noneMatch('"a", *', '"b"')).toBe(false)
    expect(noneMatch('w/"a"', '"a"')).toBe(false)
    expect(noneMatch('', '"a"')).toBe(false)
  })
})

describe('GET /api/catalog/:season: Accept-Encoding', () => {
  it('compresses with the coding the client weighs highest, ties going to br, then zstd, then gzip', async () => {
    const cases: [string, string | null][] = [
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['zstd', 'zstd'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, zstd', 'zstd'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['gzip;q=0.8, zstd;q=0.9, br;q=0.1', 'zstd'],
      ['br;q=0.5, gzip;q=0.5', 'br'],
      ['*', 'br'],
      ['*;q=0.2, gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['GZIP ; Q=0.5', 'gzip'],
      ['identity;q=1, gzip;q=0.5', null],
      ['identity, gzip', 'gzip'],
    ]
    for (const [accept, coding] of cases) {
      const { res } = await raw(SEASON, { 'accept-encoding': accept })
      expect([accept, res.headers.get('content-encoding')]).toEqual([accept, coding])
    }
  })

  it('honours q=0: a refused coding is never sent', async () => {
    const cases: [string, string | null][] = [
      ['gzip;q=0', null],
      ['gzip;q=0.000', null],
      ['gzip;q=0, deflate', null],
      ['gzip;q=0, *', 'br'],
      ['br;q=0, zstd;q=0, *;q=0.5', 'gzip'],
      ['*;q=0', null],
      ['br;q=abc, gzip;q=0.1', 'gzip'],
    ]
    for (const [accept, coding] of cases) {
      const { res } = await raw(SEASON, { 'accept-encoding': accept })
      expect(res.status).toBe(200)
      expect([accept, res.headers.get('content-encoding')]).toEqual([accept, coding])
    }
  })

  it('sends identity when nothing is acceptable, even if identity was refused (RFC 9110 §12.5.3, §12.1)', async () => {
    for (const accept of ['identity;q=0', 'identity;q=0, deflate', '', 'compress']) {
      const { res, bytes } = await raw(SEASON, { 'accept-encoding': accept })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBeNull()
      expect(json(bytes).variants.length).toBe(11)
    }
    expect(negotiate(null)).toBe('identity')
  })

  it('sends the same JSON under every coding, and Vary: Accept-Encoding on every answer', async () => {
    const plain = await raw(SEASON, { 'accept-encoding': 'identity' })
    expect(plain.res.headers.get('vary')).toBe('Accept-Encoding')
    for (const coding of ['gzip', 'br', 'zstd']) {
      const { res, bytes } = await raw(SEASON, { 'accept-encoding': coding })
      expect(res.headers.get('content-encoding')).toBe(coding)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(json(DECODE[coding](bytes))).toEqual(json(plain.bytes))
      const again = await raw(SEASON, { 'accept-encoding': coding, 'if-none-match': res.headers.get('etag')! })
      expect(again.res.status).toBe(304)
      expect(again.res.headers.get('vary')).toBe('Accept-Encoding')
      expect(again.res.headers.get('cache-control')).toBe('no-cache')
    }
  })
})

const complete = async (season: string, q: string, extra = '') => {
  const res = await s.req('GET', `/api/catalog/${season}/autocomplete?q=${encodeURIComponent(q)}${extra}`)
  expect(res.status).toBe(200)
  return res.body.matches.map((m: any) => `${m.base_name}/${m.variant}`)
}

describe('GET /api/catalog/:season: a large answer', () => {
  it('is compressed in every coding, alike for requests that arrive together, and decodes to the same JSON', async () => {
    const plain = await raw('/api/catalog/c42s3', { 'accept-encoding': 'identity' })
    expect(plain.bytes.length).toBeGreaterThan(64 * 1024)
    for (const coding of ['br', 'zstd', 'gzip']) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => raw('/api/catalog/c42s3', { 'accept-encoding': coding })))
      expect(new Set(answers.map((a) => a.res.headers.get('etag'))).size).toBe(1)
      for (const { res, bytes } of answers) {
        expect(res.headers.get('content-encoding')).toBe(coding)
        expect(bytes.length).toBeLessThan(plain.bytes.length / 4)
        expect(json(DECODE[coding](bytes))).toEqual(json(plain.bytes))
      }
    }
  })
})

describe('GET /api/catalog/:season/autocomplete', () => {
  it('matches ignoring case and accents, in names and in the query, and echoes the query as matched', async () => {
    expect(await complete('c42s1', 'nandu')).toEqual(['Nandú/Default', 'Nandu/Default'])
    expect(await complete('c42s1', 'nandú')).toEqual(['Nandú/Default', 'Nandu/Default'])
    expect((await complete('c42s1', 'CAFE')).slice(0, 1)).toEqual(['Café/Default'])
    expect((await s.req('GET', '/api/catalog/c42s1/autocomplete?q=%20NAND%C3%9A')).body.q).toBe('nandu')
  })

  it('puts confirmed variants first, then prefix before inner matches, then base_name and variant', async () => {
    expect(await complete('c42s1', 'café')).toEqual([
      'Café/Default',
      'Bear Café Latte/Default',
      'Brown Cafe Mole/Default',
      'Cafeteria Cat/Default',
      'Cafeteria Cat/Golden',
      'Brown Cafe Mole/Shadow',
    ])
  })

  it('stops at the limit', async () => {
    expect(await complete('c42s1', 'cafe', '&limit=2')).toEqual(['Café/Default', 'Bear Café Latte/Default'])
    expect((await s.req('GET', '/api/catalog/c42s1/autocomplete?q=cafe&limit=0')).status).toBe(422)
  })

  it('answers every variant in order for an empty or blank q, as before; 422 without q; 404 for an unknown season', async () => {
    expect(await complete('c42s1', '', '&limit=3')).toEqual(['Bear Café Latte/Default', 'Brown Cafe Mole/Default', 'Café/Default'])
    expect(await complete('c42s1', '   ', '&limit=3')).toEqual(['Bear Café Latte/Default', 'Brown Cafe Mole/Default', 'Café/Default'])
    expect((await s.req('GET', '/api/catalog/c42s1/autocomplete?q=%20%20')).body.q).toBe('')
    expect((await s.req('GET', '/api/catalog/c42s1/autocomplete')).status).toBe(422)
    expect((await s.req('GET', '/api/catalog/c42s9/autocomplete?q=a')).status).toBe(404)
  })

  it('answers with a strong ETag, Cache-Control, 304 and gzip like the season', async () => {
    const url = '/api/catalog/c42s1/autocomplete?q=kitchen&limit=3'
    const { res, bytes } = await raw(url, { 'accept-encoding': 'gzip' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    const tag = res.headers.get('etag')!
    expect(tag).toMatch(/^"[\w-]+-gz"$/)
    expect(json(Bun.gunzipSync(bytes)).matches.length).toBe(3)
    expect((await raw(url, { 'accept-encoding': 'gzip', 'if-none-match': `W/${tag}` })).res.status).toBe(304)
    const plain = await s.req('GET', url, { headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers.get('etag')).not.toBe(tag)
    expect(
      (await s.req('GET', url, { headers: { 'accept-encoding': 'identity', 'if-none-match': plain.headers.get('etag')! } })).status,
    ).toBe(304)
  })

  it('answers from the index the loader built when the season loaded, not from the table', async () => {
    const version = s.catalog!.versionOf('c42s2')
    const index = autocompleteIndex(s.db, 'c42s2', version)
    expect(autocompleteIndex(s.db, 'c42s2', version)).toBe(index)
    // Rows gone behind the loader's back: the index of this version still answers.
    await s.db.deleteFrom('catalog_variants').where('season', '=', 'c42s2').execute()
    expect(await complete('c42s2', 'NANDÚ')).toEqual(['Nandú/Default', 'Nandu/Default'])
  })

  it('rebuilds the index when the season file changes, and drops it when the file goes', async () => {
    const before = (await raw('/api/catalog/c42s1/autocomplete?q=emeu')).res.headers.get('etag')
    expect(await complete('c42s1', 'emeu')).toEqual([])
    writeFileSync(path.join(dir, 'c42s1.json'), season('c42s1', [...SPRITES, sprite('Émeu', 'Birds', variant('Default', true))]))
    await eventually(async () => (await complete('c42s1', 'EMEU')).length === 1)
    expect(await complete('c42s1', 'émeu')).toEqual(['Émeu/Default'])
    expect(await complete('c42s1', 'b', '&limit=1')).toEqual(['Bear Café Latte/Default'])
    expect((await raw('/api/catalog/c42s1/autocomplete?q=emeu')).res.headers.get('etag')).not.toBe(before)
    rmSync(path.join(dir, 'c42s1.json'))
    await eventually(async () => (await s.req('GET', '/api/catalog/c42s1/autocomplete?q=emeu')).status === 404)
  })
})
