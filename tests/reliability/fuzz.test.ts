// Fuzzes every route in the registry with bodies made from its own schemas, as every kind of caller:
// never a 5xx, always {detail} on a refusal, never a stack, and a refused request changes nothing. Some
// requests nest JSON past the limit (400) or forge the Host header (400), whoever sends them.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import { loadRoutes } from '../../server/routes.ts'
import { ADMIN_TOKEN, rawHttp, ROLES, startServer, type TestServer } from '../helpers.ts'
import { fitting, mutated } from './arbitrary.ts'

// Nothing a fuzzed body says may send traffic off this machine (a random cancel_url, say).
const realFetch = globalThis.fetch
globalThis.fetch = ((input: any, init?: any) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    return Promise.reject(new Error(`blocked outbound request to ${url.host}`))
  return realFetch(input, init)
}) as typeof fetch

let s: TestServer
const credentials: Record<string, { cookie?: string; key?: string; token?: string }> = { anonymous: {}, breakGlass: { token: ADMIN_TOKEN } }
beforeAll(async () => {
  // With online payments set up, so the webhook checks each fuzzed body's signature rather than answering 503.
  s = await startServer({ STRIPE_WEBHOOK_SECRET: 'whsec_fuzz0123456789abcdefghijklmn' })
  for (const [name, role] of Object.entries(ROLES)) credentials[name] = { cookie: (await s.as(role)).cookie }
  const owner = await s.as(ROLES.owner)
  const grantable = (await s.req('GET', '/api/admin/keys', { cookie: owner.cookie })).body.grantable_scopes
  credentials.key = { key: (await s.mintKey(owner.cookie, grantable)).key }
  // A little of everything to point ids at.
  await s.req('POST', '/api/join', { json: { parent_name: 'Fuzz Lead', email: 'fuzz@example.org' } })
  await s.req('POST', '/api/admin/announcements', { cookie: owner.cookie, json: { message: 'Fuzz', ends_at: '2099-01-01T00:00:00Z' } })
  await s.req('POST', '/api/admin/nearby', { cookie: owner.cookie, json: { name: 'Fuzz crew', unit_type: 'crew' } })
  const household = await s.req('POST', '/api/admin/roster/households', { cookie: owner.cookie, json: { parent_name: 'Fuzz Family' } })
  await s.req('POST', `/api/admin/roster/households/${household.body.id}/scouts`, {
    cookie: owner.cookie,
    json: { first_name: 'Fuzzy', unit_id: 1 },
  })
})
afterAll(async () => {
  await s.stop()
  globalThis.fetch = realFetch
})

/** The last snapshot, and the write counters it was taken at. */
let last: { counters: string; hash: string } | undefined

/** Every stored row that a refused request must leave alone (session and key use bookkeeping aside). While no
 * connection has written since the last one (SQLite's own counters: this connection's changes, others' commits),
 * the rows are the same and it is not read again. */
async function snapshot(): Promise<string> {
  const { rows } = await sql<{ changes: number }>`select total_changes() as changes`.execute(s.db)
  const version = await sql<{ data_version: number }>`pragma data_version`.execute(s.db)
  const counters = `${rows[0].changes}/${version.rows[0].data_version}`
  if (last?.counters === counters) return last.hash
  const hash = await readAll()
  last = { counters, hash }
  return hash
}

async function readAll(): Promise<string> {
  const tables = await s.db
    .selectFrom('sqlite_master' as never)
    .select('name' as never)
    .where('type' as never, '=', 'table' as never)
    .execute()
  const parts: string[] = []
  for (const { name } of tables as { name: string }[]) {
    if (name.startsWith('kysely_') || name === 'sessions' || name === 'sqlite_sequence') continue
    let rows = (await s.db
      .selectFrom(name as never)
      .selectAll()
      .execute()) as Record<string, unknown>[]
    if (name === 'api_keys') rows = rows.map(({ last_used_at, ...r }) => r)
    if (name === 'action_log') rows = rows.filter((r) => r.kind !== 'login.failure')
    parts.push(name, JSON.stringify(rows))
  }
  return Bun.hash(parts.join('\n')).toString()
}

const paramValue: Record<string, fc.Arbitrary<string>> = {
  id: fc.oneof(fc.constantFrom('1', '2', '999999', '0', '-1', 'abc', '1.5'), fc.string({ maxLength: 20 })),
  key: fc.oneof(
    fc.constantFrom('api_keys_from', 'announcements.live_cap', 'site.timezone', 'nope'),
    fc.string({ minLength: 1, maxLength: 20 }),
  ),
  slug_or_id: fc.constantFrom('pack', 'troop', '1', '2', 'crew', '99'),
  token: fc.string({ minLength: 1, maxLength: 60 }),
  uid: fc.string({ minLength: 1, maxLength: 60 }),
  season: fc.constantFrom('c6s3', 'c9s9', "c6s3' or 1=1--", '..'),
  item: fc.constantFrom('dues', 'health_form', 'allergies'),
  '*': fc.constantFrom('pack/x/cancel', 'pack/x/reschedule', 'pack/x/image', 'a/b/c/d', 'nothing'),
}

const enc = (v: string) => v.split('/').map(encodeURIComponent).join('/')

describe('fuzzing every route', async () => {
  const routes = (await loadRoutes()).filter((r) => r.path !== '/logout')
  for (const route of routes) {
    it(`${route.method} ${route.path} answers every caller with a 4xx {detail} or success, and refusals change nothing`, async () => {
      const names = route.path.match(/:(\w+)|\*/g)?.map((n) => n.replace(':', '')) ?? []
      const body = route.def.body ? mutated(route.def.body as any) : fc.constant(undefined)
      const query = route.def.query ? mutated(route.def.query as any) : fc.constant(undefined)
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(credentials)),
          fc.tuple(...names.map((n) => paramValue[n] ?? fc.string({ maxLength: 10 }))),
          body,
          query,
          fc.constantFrom('json', 'json', 'json', 'form', 'broken', 'nested', 'forged-host'),
          fc.integer({ min: 33, max: 60_000 }),
          async (who, params, json, q, encoding, depth) => {
            let path = route.path
            names.forEach(
              (n, i) => (path = path.replace(n === '*' ? '*' : `:${n}`, n === '*' ? enc(params[i]) : encodeURIComponent(params[i]))),
            )
            if (q && typeof q === 'object' && !Array.isArray(q))
              path +=
                '?' +
                new URLSearchParams(
                  Object.entries(q).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
                ).toString()
            // Bun itself answers 431 (no body) to request heads over 64 KiB, before the app sees them.
            fc.pre(path.length < 16_000)
            const options: Record<string, unknown> = { ...credentials[who] }
            if (encoding === 'forged-host') {
              // Bun hands the app a relative URL for such a Host: 400 whatever the route and credential.
              const c = credentials[who]
              const auth = c.cookie
                ? `Cookie: ${c.cookie}\r\n`
                : c.key
                  ? `Authorization: Bearer ${c.key}\r\n`
                  : c.token
                    ? `X-Admin-Token: ${c.token}\r\n`
                    : ''
              const before = await snapshot()
              const forged = await rawHttp(
                s.url,
                `${route.method} ${path} HTTP/1.1\r\nHost: fuzz/${who}\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`,
              )
              expect(forged.status, `${route.method} ${path} as ${who} with a forged Host`).toBe(400)
              expect(JSON.parse(forged.body).detail).toContain('Host')
              expect(await snapshot()).toBe(before)
              return
            }
            if (encoding === 'nested' && route.method !== 'GET')
              Object.assign(options, { body: `{"a":${'['.repeat(depth)}`, headers: { 'content-type': 'application/json' } })
            else if (route.method !== 'GET' && json !== undefined) {
              if (encoding === 'broken')
                Object.assign(options, { body: JSON.stringify(json)?.slice(0, -1) ?? '{', headers: { 'content-type': 'application/json' } })
              else if (encoding === 'form' && json && typeof json === 'object' && !Array.isArray(json))
                options.form = Object.fromEntries(
                  Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
                )
              else options.json = json
            }
            const before = await snapshot()
            const res = await s.req(route.method, path, options)
            // The fuzzed service builds no site, so its health answer is a 503 with the checks (the contract holds it).
            if (route.path === '/healthz' && res.status === 503) return expect(res.body.checks.site.ok).toBe(false)
            // An empty segment outside /api (`/calendar/household/`), or a dot segment the URL drops on the way
            // (`/calendar/household/.` is `/calendar/household/`), reaches no route but the site, which says
            // "One moment" with a 503 until it is first built; the fuzzed service builds none.
            const movedByTheUrl = new URL(path, s.url).pathname !== path
            const toTheSite = !route.path.startsWith('/api/') && (movedByTheUrl || params.some((p: string) => p === ''))
            if (toTheSite && res.status === 503) return expect(res.text).toContain('<title>One moment</title>')
            expect(res.status, `${route.method} ${path} as ${who}: ${res.text.slice(0, 200)}`).toBeLessThan(500)
            expect(res.text).not.toMatch(/\n\s+at \S+ \(|node_modules|\.ts:\d+:\d+/)
            // A route that takes a body refuses it (400) unless the request is refused before the body is read: no
            // credential, a dead one, or no such route. A route without a body never reads one.
            if (encoding === 'nested' && route.def.body)
              expect([400, 401, 403, 404, 405], `${route.method} ${path} as ${who} with JSON ${depth} deep`).toContain(res.status)
            if (res.status >= 400) {
              expect(res.body?.detail, `${route.method} ${path} as ${who}`).toBeDefined()
              if (route.path !== '/login')
                expect(await snapshot(), `${route.method} ${path} as ${who} answered ${res.status} but changed data`).toBe(before)
            }
          },
        ),
        { numRuns: 60 },
      )
    }, 60_000)
  }
})

describe('fitting', () => {
  it('makes bodies the schemas accept', async () => {
    const { Value } = await import('@sinclair/typebox/value')
    for (const route of (await loadRoutes()).filter((r) => r.def.body))
      fc.assert(
        fc.property(fitting(route.def.body as any), (v) => Value.Check(route.def.body as any, v) || route.path.includes('socialposts')),
        { numRuns: 20 },
      )
  })
})
