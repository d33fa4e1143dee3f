// Hostile requests found by the outside review: deeply nested JSON, bodies larger than the limit without a
// Content-Length, forged Host headers, malformed cookies and cross-site writes. Each is a clear 4xx, never a
// 500, a stack, a frozen server or a skipped sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { rawHttp, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'

let s: TestServer
let port: number
let owner: { cookie: string }
beforeAll(async () => {
  s = await startServerWithSite()
  port = Number(new URL(s.url).port)
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const raw = async (request: string) => (await rawHttp(s.url, request)).raw
const status = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1])
const body = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4)

/** Valid JSON nested `depth` arrays deep: `[[[…]]]`. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('deeply nested JSON', () => {
  it('answers 400 {detail} before validation, at any depth past 32, on a public and an admin route', async () => {
    for (const depth of [33, 20_000, 50_000]) {
      const join = await s.req('POST', '/api/join', { body: nested(depth), headers: { 'content-type': 'application/json' } })
      expect(join.status).toBe(400)
      expect(join.body.detail).toContain('nests deeper than 32')
      const admin = await s.req('POST', '/api/admin/keys', {
        cookie: owner.cookie,
        body: `{"label":"k","scopes":${nested(depth)}}`,
        headers: { 'content-type': 'application/json' },
      })
      expect(admin.status).toBe(400)
    }
    // 32 levels is still JSON to validate: a 422 naming the field, not a 400.
    const deepest = await s.req('POST', '/api/join', {
      json: { parent_name: 'A', email: 'a@example.org', message: JSON.parse('['.repeat(31) + ']'.repeat(31)) },
    })
    expect(deepest.status).toBe(422)
    expect(deepest.body.detail).toStartWith('message:')
    expect(await s.db.selectFrom('leads').select('id').execute()).toEqual([])
  })

  it('keeps a concurrent GET / as quick while nested bodies arrive as while flat bodies of the same size do', async () => {
    // Against a baseline from the same run, not a wall-clock bound: on a shared machine a busy core slows every
    // request alike, but only a nested body that stalls the event loop slows the GETs beside it and not beside the other.
    // Rounds alternate so a burst of outside load falls on both kinds.
    const nestedBody = nested(20_000) // 40 KB
    const flatBody = `[${Array(nestedBody.length / 2)
      .fill(0)
      .join(',')}]` // 40 KB, one level deep
    const times: Record<'nested' | 'flat', number[]> = { nested: [], flat: [] }
    for (let round = 0; round < 10; round++) {
      const kind = round % 2 ? 'nested' : 'flat'
      const body = kind === 'nested' ? nestedBody : flatBody
      let flowing = true
      const attackers = Array.from({ length: 7 }, async () => {
        while (flowing) await s.req('POST', '/api/join', { body, headers: { 'content-type': 'application/json' } })
      })
      for (let i = 0; i < 4; i++) {
        const started = performance.now()
        expect((await s.req('GET', '/')).status).toBe(200)
        times[kind].push(performance.now() - started)
      }
      flowing = false
      await Promise.all(attackers)
    }
    const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[xs.length >> 1]
    expect(median(times.nested)).toBeLessThan(2 * median(times.flat) + 10)
  })
})

describe('bodies over the limit', () => {
  it('answers 413 to a chunked 10 MB body with no Content-Length, and writes nothing', async () => {
    const chunk = 'x'.repeat(64 * 1024)
    const head =
      'POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n'
    const chunks = [`{"parent_name":"`, ...Array.from({ length: 160 }, () => chunk), '"}']
    const wire = head + chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n'
    const response = await raw(wire)
    expect(status(response)).toBe(413)
    expect(JSON.parse(body(response)).detail).toContain('larger than')
    expect(await s.db.selectFrom('leads').select('id').execute()).toEqual([])
  })
})

describe('forged Host headers', () => {
  it('answers 400 {detail} to a URL that cannot be read: no docs without sign-in, no development error page', async () => {
    for (const host of ['a/b', 'a?b', 'a#b', 'a b', 'a\\b', '[::1', 'a:b:c'])
      for (const path of ['/api/docs/json', '/api/docs', '/', '/units/pack/', '/api/admin/whoami', '/api/catalog']) {
        const response = await raw(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
        const code = status(response)
        expect(`${host} ${path}: ${code}`).toBe(`${host} ${path}: ${code >= 400 && code < 500 ? code : 'a 4xx'}`)
        expect(response).not.toContain('openapi')
        expect(response).not.toMatch(/at .*\.ts:\d+|node_modules|\/work\//)
      }
    const forged = await raw('GET /api/docs/json HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n')
    expect(status(forged)).toBe(400)
    expect(JSON.parse(body(forged)).detail).toContain('Host')
  })

  it('still serves a plain host name, an IP address and a host with a port', async () => {
    for (const host of ['localhost', '127.0.0.1', `127.0.0.1:${port}`, 'units.example.org', '[::1]:8080'])
      expect(status(await raw(`GET /units/pack/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`))).toBe(200)
  })
})

describe('malformed cookies', () => {
  it('treat a cookie that cannot be decoded as no session: 401, not 500', async () => {
    for (const cookie of ['site_session=%ZZ', 'site_session=%', 'site_session=%E0%A4%A', 'site_session='])
      expect((await s.req('GET', '/api/admin/whoami', { headers: { cookie } })).status).toBe(401)
    expect((await s.req('GET', '/', { headers: { cookie: 'site_session=%ZZ' } })).status).toBe(200)
  })
})

describe('cross-site writes', () => {
  it('refuses a session write marked Sec-Fetch-Site: cross-site even without Origin; same-origin and header-less writes pass', async () => {
    const send = (headers: Record<string, string>) =>
      s.req('PATCH', '/api/admin/units/pack', { cookie: owner.cookie, json: { meeting_place: 'Hall' }, headers })
    expect((await send({ 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await send({ 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    expect((await send({})).status).toBe(200)
    const { key } = await s.mintKey(owner.cookie, ['unit:write_own'])
    expect(
      (
        await s.req('PATCH', '/api/admin/units/pack', {
          key,
          json: { meeting_place: 'Hall 2' },
          headers: { 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(200)
  })
})
