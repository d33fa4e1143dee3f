// A repeated public GET of a cached answer (a bot's conditional request) is answered by the front door before
// routing, with the answer its route gives: same status, headers and log line, never stale after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { addressRules } from '../../server/auth/address.ts'
import { breakGlassThrottle } from '../../server/auth/login-throttle.ts'
import { openMigrated } from '../../server/db/client.ts'
import { readEnv } from '../../server/env.ts'
import { frontDoor } from '../../server/http/front-door.ts'
import { requestState } from '../../server/http/request-state.ts'
import { Logger } from '../../server/ops/log.ts'
import { eventually, startServer, type TestServer } from '../helpers.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'repeats-'))
const lines: string[] = []
const log = new Logger('text', (line) => lines.push(line))
let s: TestServer
beforeAll(async () => {
  cpSync(path.join(import.meta.dir, '..', '..', 'catalog', 'c6s3.json'), path.join(dir, 'c6s3.json'))
  s = await startServer({}, { catalogDir: dir, log })
})
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('the front door with a route that leaves a repeat', () => {
  const db = openMigrated(path.join(dir, 'door.db'))
  const door = async () => {
    const env = readEnv({ DATABASE_PATH: path.join(dir, 'door.db'), PORT: '0', PUBLIC_BASE_URL: 'http://localhost' })
    const routed: string[] = []
    const cache = { stale: false }
    const wrapped = (
      frontDoor({
        auth: { db: await db, env, rules: addressRules([], []), breakGlass: breakGlassThrottle() },
        server: () => null,
        log: null,
        internalError: () => new Response('error', { status: 500 }),
      }) as unknown as (fetch: (r: Request) => Response) => (r: Request) => Response | Promise<Response>
    )((request) => {
      routed.push(`${request.method} ${request.url}`)
      requestState.repeatWith(request, () => (cache.stale ? null : new Response('again')))
      return new Response('routed')
    })
    const send = async (url: string, init: RequestInit = {}) => (await wrapped(new Request(url, init))).text()
    return { routed, send, cache }
  }

  it('answers the same target again without routing it; another query, method or a stale repeat is routed', async () => {
    const { routed, send, cache } = await door()
    expect(await send('http://localhost/api/catalog/c6s3?row_name=A')).toBe('routed')
    expect(await send('http://localhost/api/catalog/c6s3?row_name=A')).toBe('again')
    expect(await send('http://localhost/api/catalog/c6s3?row_name=B')).toBe('routed')
    expect(await send('http://localhost/api/catalog/c6s3?row_name=A', { method: 'HEAD' })).toBe('routed')
    cache.stale = true
    expect(await send('http://localhost/api/catalog/c6s3?row_name=B')).toBe('routed')
    expect(routed).toEqual([
      'GET http://localhost/api/catalog/c6s3?row_name=A',
      'GET http://localhost/api/catalog/c6s3?row_name=B',
      'HEAD http://localhost/api/catalog/c6s3?row_name=A',
      'GET http://localhost/api/catalog/c6s3?row_name=B',
    ])
  })

  it('offers no repeat to a write or to a path that needs a credential', async () => {
    const { routed, send } = await door()
    await send('http://localhost/api/catalog/c6s3', { method: 'POST' })
    expect(await send('http://localhost/api/catalog/c6s3', { method: 'POST' })).toBe('routed')
    // Unauthenticated, the admin path is refused before routing: a repeat could never be left there either.
    await send('http://localhost/api/admin/whoami')
    await send('http://localhost/api/admin/whoami')
    expect(routed).toEqual(['POST http://localhost/api/catalog/c6s3', 'POST http://localhost/api/catalog/c6s3'])
  })

  it('refuses an unreadable Host before looking for a repeat', async () => {
    const { send } = await door()
    expect(await send('http://localhost/api/catalog/c6s3')).toBe('routed')
    expect(await send('http://localhost/api/catalog/c6s3')).toBe('again')
    expect(await send('http://localhost/api/catalog/c6s3', { headers: { host: 'bad host' } })).toContain('Host header cannot be read')
  })
})

describe('catalog answers repeated', () => {
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${s.url}${p}`, { headers })

  it('answers a conditional repeat 304 with the headers and log line of the route’s own 304', async () => {
    const target = '/api/catalog/c6s3?row_name=Row%201'
    const first = await get(target, { 'accept-encoding': 'gzip' })
    await first.arrayBuffer()
    const etag = first.headers.get('etag')!
    const routed = await get(target, { 'accept-encoding': 'gzip', 'if-none-match': etag })
    const repeated = await get(target, { 'accept-encoding': 'gzip', 'if-none-match': `W/${etag}` })
    for (const res of [routed, repeated]) {
      expect(res.status).toBe(304)
      expect(res.headers.get('etag')).toBe(etag)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('same-origin')
    }
    // Another representation of the same target: the repeat negotiates as the route does.
    const identity = await get(target, { 'accept-encoding': 'identity', 'if-none-match': etag })
    expect(identity.status).toBe(200)
    expect(identity.headers.get('etag')).not.toBe(etag)
    await identity.arrayBuffer()
    log.drain()
    const logged = lines.filter((l) => l.includes('/api/catalog/c6s3 '))
    expect(logged.slice(-4).map((l) => l.split(' ').slice(1, 4).join(' '))).toEqual([
      'GET /api/catalog/c6s3 200',
      'GET /api/catalog/c6s3 304',
      'GET /api/catalog/c6s3 304',
      'GET /api/catalog/c6s3 200',
    ])
    expect(logged.at(-2)).toEndWith('via=none query=row_name')
  })

  it('is never stale: a reload gives a new ETag, and a removed season answers 404', async () => {
    const target = '/api/catalog/c6s3'
    const before = await get(target)
    const etag = before.headers.get('etag')!
    await before.arrayBuffer()
    expect((await get(target, { 'if-none-match': etag })).status).toBe(304)
    const file = JSON.parse(await Bun.file(path.join(dir, 'c6s3.json')).text())
    file.sprites[0].variants[0].confirmed = !file.sprites[0].variants[0].confirmed
    writeFileSync(path.join(dir, 'c6s3.json'), JSON.stringify(file))
    await eventually(async () => (await get(target, { 'if-none-match': etag })).status === 200)
    rmSync(path.join(dir, 'c6s3.json'))
    await eventually(async () => (await get(target, { 'if-none-match': etag })).status === 404)
  })
})
