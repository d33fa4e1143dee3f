// A repeated public GET of a cached catalog answer (a bot's conditional request) is answered from the cache with the
// answer its route gives: same status, headers and log line, never stale after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
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
    // Each line is written just after its answer is sent: wait for the last one.
    const logged = () => (log.drain(), lines.filter((l) => l.includes('/api/catalog/c6s3 ')))
    await eventually(async () => logged().at(-1)?.includes('/api/catalog/c6s3 200') ?? false)
    expect(
      logged()
        .slice(-4)
        .map((l) => l.split(' ').slice(1, 4).join(' ')),
    ).toEqual(['GET /api/catalog/c6s3 200', 'GET /api/catalog/c6s3 304', 'GET /api/catalog/c6s3 304', 'GET /api/catalog/c6s3 200'])
    expect(logged().at(-2)).toEndWith('via=none query=row_name')
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
