// The edge every answer passes: X-Request-Id on each (the client's kept when well formed) and in its log line; and
// the public catalog's own: its OpenAPI document without a credential, CORS, and a rate limit per address with the
// IETF RateLimit fields and 429 past it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Logger } from '../../server/ops/log.ts'
import { WindowLimiter } from '../../server/rate-limit.ts'
import { redoclyLint } from '../contract.ts'
import { eventually, rawHttp, ROLES, startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'edge-'))
const lines: string[] = []
const log = new Logger('text', (line) => lines.push(line))
let s: TestServer
let owner: { cookie: string }
beforeAll(async () => {
  cpSync(path.join(import.meta.dir, '..', '..', 'catalog', 'c6s3.json'), path.join(dir, 'c6s3.json'))
  // Proxied from loopback: X-Forwarded-For names the client, so the tests can be several addresses.
  s = await startServer({ TRUST_PROXY: '127.0.0.1/32' }, { catalogDir: dir, log })
  owner = await s.as(ROLES.owner)
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${s.url}${p}`, { method, headers, redirect: 'manual' })

describe('X-Request-Id', () => {
  it('is on every kind of answer, a new one each time', async () => {
    const etag = (await get('/api/catalog/c6s3')).headers.get('etag')!
    const answers = [
      await get('/api/catalog/c6s3'), // 200, from the cache
      await get('/api/catalog/c6s3', { 'if-none-match': etag }), // 304 before routing
      await get('/api/catalog/nope'), // 404 from a route
      await get('/api/catalog', {}, 'OPTIONS'), // preflight
      await get('/api/admin/whoami'), // 401
      await get('/api/admin/whoami', { cookie: owner.cookie }), // 200 admin
      await get('/healthz'), // 503: no site is built here
      await get('/healthz', {}, 'DELETE'), // 405
      await get('/no/such/page'), // a page (503 while no site is built)
      await get('/api/docs/swagger-ui.css', { cookie: owner.cookie }), // a static file
    ]
    expect(answers.map((r) => r.status)).toEqual([200, 304, 404, 204, 401, 200, 503, 405, 503, 200])
    const ids = answers.map((r) => r.headers.get('x-request-id'))
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(ids.length)
    // Refused before any route: an unreadable Host.
    const raw = await rawHttp(s.url, 'GET /healthz HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n')
    expect(raw.status).toBe(400)
    expect(raw.raw).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i)
  })

  it("keeps the client's when it is 1 to 128 of A-Z a-z 0-9 . _ -, else makes a new one", async () => {
    const longest = 'a.B_9-'.repeat(21) + 'xy'
    expect(longest).toHaveLength(128)
    for (const kept of ['x', 'bot-42.run_7', longest]) {
      expect((await get('/healthz', { 'x-request-id': kept })).headers.get('x-request-id')).toBe(kept)
      expect((await get('/api/catalog/c6s3', { 'x-request-id': kept })).headers.get('x-request-id')).toBe(kept)
    }
    for (const replaced of [longest + 'z', 'has space', 'semi;colon', 'ünï', '"quoted"'])
      expect((await get('/healthz', { 'x-request-id': replaced })).headers.get('x-request-id')).toMatch(UUID)
  })

  it("is in the request's log line", async () => {
    await get('/api/catalog/c6s3', { 'x-request-id': 'edge-log.check_1' })
    const fresh = await get('/healthz', { 'x-request-id': 'too long '.repeat(20) })
    // Each line is written just after its answer is sent.
    await eventually(async () => (log.drain(), lines.some((l) => l.includes(`request_id=${fresh.headers.get('x-request-id')} `))))
    expect(lines.find((l) => l.includes('request_id=edge-log.check_1'))).toMatch(
      / GET \/api\/catalog\/c6s3 200 [\d.]+ms request_id=edge-log\.check_1 via=none$/,
    )
    expect(lines.some((l) => l.includes(`request_id=${fresh.headers.get('x-request-id')} `))).toBe(true)
    expect(lines.join('\n')).not.toContain('too long')
  })
})

describe('GET /api/catalog/openapi.json', () => {
  it('answers without a credential: the public catalog operations only, a valid OpenAPI 3.1 document', async () => {
    const res = await s.req('GET', '/api/catalog/openapi.json')
    expect(res.status).toBe(200)
    const doc = res.body
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toContain('catalog')
    const paths = Object.keys(doc.paths).sort()
    expect(paths).toEqual([
      '/api/catalog',
      '/api/catalog/autocomplete',
      '/api/catalog/changes',
      '/api/catalog/openapi.json',
      '/api/catalog/search',
      '/api/catalog/variants',
      '/api/catalog/variants/{id}',
      '/api/catalog/{season}',
      '/api/catalog/{season}/autocomplete',
    ])
    expect(doc.components.securitySchemes).toBeUndefined()
    for (const [p, operations] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(operations)) {
        expect([p, method, op['x-capability'], op.security]).toEqual([p, 'get', 'public', []])
        expect(op.responses['429'].headers['Retry-After']).toBeDefined()
        for (const answer of Object.values(op.responses as Record<string, any>)) {
          expect(answer.description.length).toBeGreaterThan(3)
          for (const name of ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Access-Control-Allow-Origin'])
            expect(answer.headers[name], `${p} ${name}`).toEqual({ $ref: `#/components/headers/${name}` })
        }
      }
    // Every local reference resolves within the document itself.
    const text = JSON.stringify(doc)
    for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = ref.split('/').reduce((at: any, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc)
      expect(target, ref).toBeDefined()
    }
    expect(text).not.toContain('/api/admin')
  })

  it('passes `redocly lint` with the recommended rules', async () => {
    const { problems } = redoclyLint(await (await get('/api/catalog/openapi.json')).json())
    // The router sends the literal segment first, as the catalog's tests show.
    expect(problems).toEqual([
      'warn no-ambiguous-paths: Paths should resolve unambiguously. Found two ambiguous paths: `/api/catalog/{season}/autocomplete` and `/api/catalog/variants/{id}`.',
    ])
  }, 60_000)
})

describe('CORS on the public catalog', () => {
  const EXPOSED = ['ETag', 'Link', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After']

  it('allows any origin on every catalog answer, 304s and refusals included, and shows the fields a client reads', async () => {
    const ok = await get('/api/catalog/c6s3', { origin: 'https://tools.example' })
    const notModified = await get('/api/catalog/c6s3', { 'if-none-match': ok.headers.get('etag')! })
    const answers = [
      ok,
      notModified,
      await get('/api/catalog/nope'),
      await get('/api/catalog/c6s3?limit=0'),
      await get('/api/catalog/openapi.json'),
      await get('/api/catalog', {}, 'DELETE'),
    ]
    expect(answers.map((r) => r.status)).toEqual([200, 304, 404, 422, 200, 405])
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-expose-headers')!.split(', ')).toEqual(EXPOSED)
    }
  })

  it('answers a preflight 204 with the methods, headers and how long to keep it', async () => {
    for (const p of ['/api/catalog', '/api/catalog/c6s3', '/api/catalog/openapi.json']) {
      const res = await get(
        p,
        { origin: 'https://tools.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
        'OPTIONS',
      )
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
      expect(res.headers.get('access-control-allow-headers')).toContain('If-None-Match')
      expect(res.headers.get('access-control-allow-headers')).toContain('Accept-Encoding')
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
      // A preflight is not counted.
      expect(res.headers.get('ratelimit')).toBeNull()
    }
  })

  it('is never given under /api/admin, nor elsewhere', async () => {
    const answers = [
      await get('/api/admin/whoami', { origin: 'https://tools.example' }),
      await get('/api/admin/whoami', { cookie: owner.cookie, origin: 'https://tools.example' }),
      await get('/api/admin/whoami', { origin: 'https://tools.example', 'access-control-request-method': 'GET' }, 'OPTIONS'),
      await get('/healthz'),
    ]
    expect(answers.map((r) => r.status)).toEqual([401, 200, 401, 503])
    for (const res of answers) {
      for (const name of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-expose-headers'])
        expect(res.headers.get(name)).toBeNull()
      expect(res.headers.get('ratelimit')).toBeNull()
    }
  })
})

describe('the catalog rate limit', () => {
  const from = (address: string, p = '/api/catalog/c6s3') => get(p, { 'x-forwarded-for': address })
  const field = (res: Response) => {
    const [, r, t] = /^"default";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '') ?? []
    return { r: Number(r), t: Number(t) }
  }
  const setLimit = async (value: number | null) =>
    expect((await s.req('PUT', '/api/admin/settings/catalog.per_minute', { cookie: owner.cookie, json: { value } })).status).toBe(200)

  /**
   * Runs `check` within one window of the limiter: the windows start on the minute, so when one ends during the
   * check (its `t` grew between two answers), it runs once more in the next.
   */
  let fresh = 10
  const inOneWindow = async (check: (address: string) => Promise<Response[]>) => {
    for (let attempt = 0; ; attempt++) {
      const answers = await check(`198.51.100.${fresh++}`)
      const ts = answers.map((a) => field(a).t)
      if (ts.every((t, i) => i === 0 || t <= ts[i - 1]) || attempt === 1) return answers
    }
  }

  it('answers RateLimit-Policy and RateLimit (the IETF draft fields) on catalog answers, counting down per address', async () => {
    const [a1, a2, b1] = await inOneWindow(async (address) => [await from(address), await from(address), await from('203.0.113.1')])
    expect(a1.headers.get('ratelimit-policy')).toBe('"default";q=600;w=60')
    expect(field(a1).r).toBe(599)
    expect(field(a2).r).toBe(598)
    expect(field(b1).r).toBe(599)
    expect(field(a1).t).toBeGreaterThanOrEqual(1)
    expect(field(a1).t).toBeLessThanOrEqual(60)
  })

  it('answers 429 rate_limited with Retry-After past catalog.per_minute, per address, on cached answers too', async () => {
    await setLimit(3)
    try {
      const answers = await inOneWindow(async (address) => {
        const etag = (await from(address)).headers.get('etag')!
        return [
          await get('/api/catalog/c6s3', { 'x-forwarded-for': address, 'if-none-match': etag }),
          await from(address, '/api/catalog'),
          await from(address),
          await get('/api/catalog/c6s3', { 'x-forwarded-for': address, 'if-none-match': etag }),
          await from('192.0.2.77'),
        ]
      })
      expect(answers.map((r) => r.status)).toEqual([304, 200, 429, 429, 200])
      expect(answers.map((r) => field(r).r)).toEqual([1, 0, 0, 0, 2])
      const refused = answers[2]
      expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60')
      expect(Number(refused.headers.get('retry-after'))).toBe(field(refused).t)
      expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      expect(refused.headers.get('x-request-id')).toMatch(UUID)
      expect(await refused.json()).toEqual({ detail: expect.stringContaining('More than 3 catalog requests'), code: 'rate_limited' })
      // The admin API is not counted.
      expect((await get('/api/admin/whoami', { 'x-forwarded-for': '192.0.2.77', cookie: owner.cookie })).status).toBe(200)
    } finally {
      await setLimit(null)
    }
    expect(field(await from('192.0.2.78')).r).toBe(599)
  })

  it('counts an IPv6 client by its /64, as sign-in does: other addresses in it share the limit', async () => {
    await setLimit(2)
    try {
      const answers = await inOneWindow(async (address) => {
        const net = `2001:db8:${address.split('.').pop()}:7`
        return [await from(`${net}::1`), await from(`${net}:a:b:c:d`), await from(`${net}::ffff`), await from('2001:db8:ff:8::1')]
      })
      expect(answers.map((r) => r.status)).toEqual([200, 200, 429, 200])
    } finally {
      await setLimit(null)
    }
  })

  it('is refused out of range as a setting', async () => {
    for (const value of [0, 10_000_001, 2.5, '600']) {
      const res = await fetch(`${s.url}/api/admin/settings/catalog.per_minute`, {
        method: 'PUT',
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ value }),
      })
      expect([value, res.status]).toEqual([value, 422])
    }
  })

  it('keeps one window at a time, and no more addresses than it may hold', () => {
    const limiter = new WindowLimiter(60_000, 3)
    const start = 120_000
    expect([limiter.hit('a', 2, start), limiter.hit('a', 2, start + 1), limiter.hit('a', 2, start + 2)]).toEqual([1, 0, -1])
    expect(limiter.resetSeconds(start + 1_500)).toBe(59)
    // The next minute starts over, forgetting the last one's addresses.
    limiter.hit('b', 2, start + 10)
    expect(limiter.size).toBe(2)
    expect(limiter.hit('a', 2, start + 60_000)).toBe(1)
    expect(limiter.size).toBe(1)
    // Full: the window starts over rather than growing.
    for (const key of ['c', 'd']) limiter.hit(key, 2, start + 60_001)
    expect(limiter.size).toBe(3)
    limiter.hit('e', 2, start + 60_002)
    expect(limiter.size).toBe(1)
  })
})
