// The catalog over HTTP for the bot, and the loader that keeps the last good version of each season.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CatalogLoader } from '../../server/catalog/loader.ts'
import { ADMIN_TOKEN, eventually, ROLES, startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-'))
let s: TestServer
beforeAll(async () => {
  for (const f of ['c6s3.json', 'c6s4.json']) cpSync(path.join(import.meta.dir, '..', '..', 'catalog', f), path.join(dir, f))
  s = await startServer({}, { catalogDir: dir })
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('GET /api/catalog', () => {
  it('lists seasons in order with their counts, without a credential', async () => {
    const res = await s.req('GET', '/api/catalog')
    expect(res.status).toBe(200)
    expect(res.body.seasons).toEqual([
      { season: 'c6s3', variants: 11, released: 7, hidden: 1, unreleased: 3, confirmed: 6 },
      { season: 'c6s4', variants: 8, released: 6, hidden: 1, unreleased: 1, confirmed: 4 },
    ])
  })
})

describe('GET /api/catalog/:season', () => {
  it('returns one flattened row per variant with defaults and the effective game mode', async () => {
    const res = await s.req('GET', '/api/catalog/c6s3')
    expect(res.status).toBe(200)
    expect(res.body.variants.length).toBe(11)
    const beetle = res.body.variants.find((v: any) => v.base_name === 'Turbo Beetle' && v.variant === 'Chrome')
    expect(beetle).toEqual({
      id: expect.stringMatching(/^c6s3-[\w-]{12}$/),
      season: 'c6s3',
      base_name: 'Turbo Beetle',
      row_name: 'Speedway',
      variant: 'Chrome',
      status: 'released',
      released_at: '2026-06-26',
      max_stack: 1,
      rarity_weight: 0.35,
      confirmed: false,
      game_mode: 'racing',
      cross_mode_trading: false,
      notes: null,
      added_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      changed_at: beetle.added_at,
    })
    expect(res.body.variants.find((v: any) => v.base_name === 'Moss Turtle').game_mode).toBe('br')
    expect(res.body.variants.find((v: any) => v.variant === 'Snowy').notes).toBe('Datamined; release date not announced.')
  })

  it('filters by status, game_mode and row_name', async () => {
    const hidden = await s.req('GET', '/api/catalog/c6s3?status=hidden')
    expect(hidden.body.variants.map((v: any) => v.variant)).toEqual(['Shadow'])
    const racing = await s.req('GET', '/api/catalog/c6s3?game_mode=racing')
    expect(racing.body.variants.length).toBe(3)
    const row = await s.req('GET', '/api/catalog/c6s3?row_name=Forest%20Friends&status=released')
    expect(row.body.variants.length).toBe(3)
    expect((await s.req('GET', '/api/catalog/c6s3?status=gone')).status).toBe(422)
  })

  it('answers 404 for an unknown season, and for traversal attempts', async () => {
    expect((await s.req('GET', '/api/catalog/c9s9')).status).toBe(404)
    expect((await s.req('GET', '/api/catalog/..%2f..%2fetc%2fpasswd')).status).toBe(404)
    expect((await s.req('GET', "/api/catalog/c6s3'%20or%201=1--")).status).toBe(404)
  })

  it('sends a strong ETag and answers 304 to If-None-Match', async () => {
    const first = await s.req('GET', '/api/catalog/c6s3')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await s.req('GET', '/api/catalog/c6s3', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect((await s.req('GET', '/api/catalog', { headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  it('compresses when the client accepts gzip', async () => {
    const res = await fetch(`${s.url}/api/catalog/c6s3`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toContain('Accept-Encoding')
    const body = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer()))))
    expect(body.variants.length).toBe(11)
    const gzEtag = res.headers.get('etag')!
    expect((await s.req('GET', '/api/catalog/c6s3', { headers: { 'if-none-match': gzEtag, 'accept-encoding': 'gzip' } })).status).toBe(304)
  })
})

describe('GET /api/catalog/:season/autocomplete', () => {
  it('matches row_name as well as base_name, prefix before substring, unconfirmed after confirmed', async () => {
    const res = await s.req('GET', '/api/catalog/c6s3/autocomplete?q=fo')
    expect(res.status).toBe(200)
    const names = res.body.matches.map((m: any) => `${m.base_name}/${m.variant}`)
    // "Forest Friends" is a row prefix for all of these; confirmed variants come first.
    expect(names).toEqual([
      'Ember Fox/Default',
      'Ember Fox/Golden',
      'Ember Fox/Shadow',
      'Moss Turtle/Default',
      'Canopy Owl/Default',
      'Canopy Owl/Snowy',
    ])
    const speed = await s.req('GET', '/api/catalog/c6s3/autocomplete?q=SPEED')
    expect(speed.body.matches.map((m: any) => m.base_name)).toEqual(['Turbo Beetle', 'Drift Gecko', 'Turbo Beetle'])
    const sub = await s.req('GET', '/api/catalog/c6s3/autocomplete?q=ee')
    expect(sub.body.matches.map((m: any) => m.base_name)).toContain('Turbo Beetle')
  })

  it('never orders by rarity_weight', async () => {
    const res = await s.req('GET', '/api/catalog/c6s3/autocomplete?q=turbo')
    expect(res.body.matches.map((m: any) => m.variant)).toEqual(['Default', 'Chrome'])
  })

  it('answers 404 for an unknown season and 422 without q', async () => {
    expect((await s.req('GET', '/api/catalog/c1s1/autocomplete?q=a')).status).toBe(404)
    expect((await s.req('GET', '/api/catalog/c6s3/autocomplete')).status).toBe(422)
  })
})

describe('catalog loader', () => {
  it('asks for a site build when a file changes, but not on its first load: the start builds once after that', async () => {
    let asked = 0
    const loader = new CatalogLoader(s.db, dir, () => asked++)
    await loader.loadAll()
    expect(loader.versionOf('c6s3')).toBeGreaterThan(0)
    expect(asked).toBe(0)
    await loader.loadFile('c6s3.json')
    expect(asked).toBe(1)
  })

  it('reloads a changed file, and a new ETag follows', async () => {
    const before = (await s.req('GET', '/api/catalog/c6s4')).headers.get('etag')
    const file = JSON.parse(await Bun.file(path.join(dir, 'c6s4.json')).text())
    file.sprites[1].variants[0].confirmed = true
    writeFileSync(path.join(dir, 'c6s4.json'), JSON.stringify(file))
    await eventually(async () => (await s.req('GET', '/api/catalog/c6s4')).body.variants[3].confirmed === true)
    expect((await s.req('GET', '/api/catalog/c6s4')).headers.get('etag')).not.toBe(before)
  })

  it('keeps the last good version when a file turns invalid, logs catalog.load and shows it to admins', async () => {
    const good = await s.req('GET', '/api/catalog/c6s3')
    writeFileSync(path.join(dir, 'c6s3.json'), JSON.stringify({ season: 'c6s3', game_mode: 'pvp', sprites: [] }))
    await eventually(async () => {
      const admin = await s.req('GET', '/api/admin/catalog', { token: ADMIN_TOKEN })
      return admin.body.files.some((f: any) => f.file === 'c6s3.json' && !f.ok)
    })
    expect((await s.req('GET', '/api/catalog/c6s3')).body).toEqual(good.body)
    const log = await s.lastLog('catalog.load')
    expect(log.summary).toContain('c6s3.json refused')
    expect(log.summary).toContain('/game_mode')
    const admin = await s.as(ROLES.admin)
    const files = (await s.req('GET', '/api/admin/catalog', { cookie: admin.cookie })).body.files
    const status = files.find((f: any) => f.file === 'c6s3.json')
    expect(status.problems.some((p: any) => p.pointer === '/sprites' && p.level === 'error')).toBe(true)
    expect(status.loaded_at).not.toBeNull()
    const leader = await s.as(ROLES.packLeader)
    expect((await s.req('GET', '/api/admin/catalog', { cookie: leader.cookie })).status).toBe(403)
  })

  const adminFile = async (name: string) =>
    (await s.req('GET', '/api/admin/catalog', { token: ADMIN_TOKEN })).body.files.find((f: any) => f.file === name)

  it('reads a changed file as bytes: a byte-order mark or a key given twice is refused and the last good version stays', async () => {
    const good = await s.req('GET', '/api/catalog/c6s4')
    const text = await Bun.file(path.join(dir, 'c6s4.json')).text()
    writeFileSync(path.join(dir, 'c6s4.json'), new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))
    await eventually(async () => (await adminFile('c6s4.json'))?.ok === false)
    expect((await adminFile('c6s4.json')).problems).toEqual([
      {
        level: 'error',
        pointer: '',
        message: 'starts with a UTF-8 byte-order mark (bytes ef bb bf at line 1, column 1); save the file as UTF-8 without one',
      },
    ])
    writeFileSync(path.join(dir, 'c6s4.json'), text.replace('{', '{"season": "c6s4", '))
    await eventually(async () => (await adminFile('c6s4.json'))?.problems[0]?.message.startsWith('has the key "season" twice') === true)
    expect((await s.lastLog('catalog.load')).summary).toContain('c6s4.json refused (1 errors; the last good version stays): /: has the key')
    expect((await s.req('GET', '/api/catalog/c6s4')).body).toEqual(good.body)
    writeFileSync(path.join(dir, 'c6s4.json'), text)
    await eventually(async () => (await adminFile('c6s4.json'))?.ok === true)
  })

  it('refuses a misnamed file by name, never serves it, and forgets it once removed', async () => {
    writeFileSync(path.join(dir, 'C7S2.json'), (await Bun.file(path.join(dir, 'c6s4.json')).text()).replace('"c6s4"', '"c7s2"'))
    await eventually(async () => !!(await adminFile('C7S2.json')))
    const status = await adminFile('C7S2.json')
    expect(status).toMatchObject({ season: null, ok: false, loaded_at: null })
    expect(status.problems[0]).toEqual({
      level: 'error',
      pointer: '',
      message:
        'file name "C7S2.json" is not a season followed by .json, like c6s3.json (lower-case c and s, digits 0-9); season must equal the file name stem',
    })
    expect((await s.req('GET', '/api/catalog/c7s2')).status).toBe(404)
    expect((await s.req('GET', '/api/catalog')).body.seasons.map((x: any) => x.season)).toEqual(['c6s3', 'c6s4'])
    rmSync(path.join(dir, 'C7S2.json'))
    await eventually(async () => !(await adminFile('C7S2.json')))
    expect((await s.lastLog('catalog.load')).summary).toBe('C7S2.json was removed')
  })

  it('drops a season whose file is removed', async () => {
    writeFileSync(
      path.join(dir, 'c7s1.json'),
      JSON.stringify({
        season: 'c7s1',
        game_mode: 'og',
        sprites: [{ base_name: 'A', row_name: 'R', variants: [{ variant: 'Default', status: 'unreleased' }] }],
      }),
    )
    await eventually(async () => (await s.req('GET', '/api/catalog/c7s1')).status === 200)
    rmSync(path.join(dir, 'c7s1.json'))
    await eventually(async () => (await s.req('GET', '/api/catalog/c7s1')).status === 404)
  })
})
