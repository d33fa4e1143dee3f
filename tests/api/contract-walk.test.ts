// The contract, walked route by route from the registry: every refusal carries a declared code (the contract check
// in helpers.ts refuses any other), every answer an X-Request-Id, a known path asked with another method is 405
// with Allow, and every list that pages answers next_cursor, a Link to the next page and 422 to a cursor it never gave.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { loadRoutes, type LoadedRoute } from '#server/routes.ts'
import { isAdminPath, isCatalogPath } from '#server/http/edge.ts'
import { METHODS } from '#server/routes.ts'
import { copyFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ROLES, startServer, type TestServer, type TestResponse } from '../helpers.ts'
import { addHousehold } from '../households.ts'

let s: TestServer
let owner: { cookie: string }
let member: { cookie: string }
let memberCapabilities: Set<string>
let routes: LoadedRoute[]
beforeAll(async () => {
  // A catalog of one season, and a little of every list, so each paged list has more than one page.
  const catalogDir = mkdtempSync(path.join(tmpdir(), 'walk-catalog-'))
  copyFileSync(path.join(import.meta.dir, '..', 'fixtures', 'catalog', 'pass', 'flatten', 'c2s1.json'), path.join(catalogDir, 'c2s1.json'))
  s = await startServer({}, { catalogDir })
  owner = await s.as(ROLES.owner)
  member = await s.as(ROLES.member)
  memberCapabilities = new Set((await s.req('GET', '/api/admin/whoami', { cookie: member.cookie })).body.capabilities)
  routes = await loadRoutes()
  for (const n of [1, 2]) {
    await s.req('POST', '/api/join', { json: { parent_name: `Walk Parent ${n}`, email: `walk${n}@example.org`, unit: 'pack' } })
    await addHousehold(s.db, { unit: 'pack', email: `walk.home${n}@example.org` })
    const ends_at = new Date(Date.now() + 86_400_000).toISOString()
    await s.req('POST', '/api/admin/announcements', { cookie: owner.cookie, json: { message: `Walk news ${n}`, ends_at } })
    await s.req('POST', '/api/admin/pages', { cookie: owner.cookie, json: { slug: `walk-${n}`, title: `Walk ${n}`, body: 'Text' } })
  }
})
afterAll(() => s.stop())

/** A path of the route naming nothing that exists. */
const samplePath = (route: LoadedRoute) => route.docPath.replace(/\{[^}]+\}/g, '999999')
const sent: TestResponse[] = []
const ask = async (method: string, path: string, options: Parameters<TestServer['req']>[2] = {}) => {
  const res = await s.req(method, path, options)
  sent.push(res)
  return res
}

describe('the contract, route by route', () => {
  it('refuses every admin route without a credential: 401 unauthenticated with WWW-Authenticate', async () => {
    for (const route of routes.filter((r) => isAdminPath(r.path))) {
      const res = await ask(route.method, samplePath(route), route.def.body ? { json: {} } : {})
      expect([route.file, res.status, res.body.code], route.docPath).toEqual([route.file, 401, 'unauthenticated'])
      expect(res.headers.get('www-authenticate')).toBeTruthy()
    }
  })

  it('refuses a family account every route its capabilities do not reach: 403 capability_missing', async () => {
    const beyond = routes.filter((r) => isAdminPath(r.path) && r.def.auth !== 'any' && !memberCapabilities.has(r.def.auth))
    expect(beyond.length).toBeGreaterThan(40)
    for (const route of beyond) {
      const res = await ask(route.method, samplePath(route), { cookie: member.cookie, ...(route.def.body ? { json: {} } : {}) })
      expect([`${route.method} ${route.docPath}`, res.status, res.body.code]).toEqual([
        `${route.method} ${route.docPath}`,
        403,
        'capability_missing',
      ])
    }
  })

  it('answers a known path asked with a method it does not serve 405 method_not_allowed, with Allow', async () => {
    const byPath = Map.groupBy(routes, (r) => samplePath(r))
    let checked = 0
    for (const [path, served] of byPath) {
      const methods = new Set(served.map((r) => r.method))
      const other = METHODS.find((m) => !methods.has(m) && m !== 'GET') ?? METHODS.find((m) => !methods.has(m))
      if (!other) continue
      const res = await ask(other, path, { cookie: owner.cookie, ...(other === 'GET' ? {} : { json: {} }) })
      expect([`${other} ${path}`, res.status, res.body.code]).toEqual([`${other} ${path}`, 405, 'method_not_allowed'])
      for (const m of methods) expect(res.headers.get('allow')).toContain(m)
      checked++
    }
    expect(checked).toBeGreaterThan(50)
  })

  it('answers unknown resources 404 not_found for the owner', async () => {
    for (const route of routes.filter((r) => isAdminPath(r.path) && r.method === 'GET' && /\{id\}$/.test(r.docPath))) {
      const res = await ask('GET', samplePath(route), { cookie: owner.cookie })
      expect([route.docPath, res.status, res.body.code]).toEqual([route.docPath, 404, 'not_found'])
    }
  })

  it('pages every list the same way: next_cursor, a Link to the next page with it, and 422 for a cursor it never gave', async () => {
    const paged = routes.filter((r) => r.method === 'GET' && r.def.query?.properties?.cursor)
    expect(paged.map((r) => r.docPath).sort()).toEqual([
      '/api/admin/announcements',
      '/api/admin/files',
      '/api/admin/history',
      '/api/admin/leads',
      '/api/admin/messages',
      '/api/admin/money/entries',
      '/api/admin/pages',
      '/api/admin/roster',
      '/api/catalog/changes',
      '/api/catalog/search',
      '/api/catalog/{season}',
    ])
    let linked = 0
    for (const route of paged) {
      const where = route.docPath.replace('{season}', 'c2s1')
      const first = await ask('GET', `${where}?limit=1`, { cookie: owner.cookie })
      expect([route.docPath, first.status]).toEqual([route.docPath, 200])
      expect(first.body).toHaveProperty('next_cursor')
      const next = first.body.next_cursor
      if (next) {
        linked++
        const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')
        const url = new URL(link![1], s.url)
        expect([url.pathname, url.searchParams.get('limit'), url.searchParams.get('cursor')]).toEqual([where, '1', next])
        const second = await ask('GET', `${where}?limit=1&cursor=${encodeURIComponent(next)}`, { cookie: owner.cookie })
        expect([route.docPath, second.status]).toEqual([route.docPath, 200])
      } else expect(first.headers.get('link')).toBeNull()
      const bad = await ask('GET', `${where}?cursor=not-a-cursor`, { cookie: owner.cookie })
      expect([route.docPath, bad.status, bad.body.code]).toEqual([route.docPath, 422, 'cursor_invalid'])
    }
    expect(linked).toBeGreaterThanOrEqual(8)
  })

  it('refuses a query parameter a route does not take, and one sent twice, with 422 naming it; a list that does not page refuses limit', async () => {
    const strict = routes.filter((r) => isAdminPath(r.path) || isCatalogPath(r.path))
    for (const route of strict) {
      const where = samplePath(route)
      const options = { cookie: owner.cookie, ...(route.def.body ? { json: {} } : {}) }
      const res = await ask(route.method, `${where}?no_such_thing=1`, options)
      expect([`${route.method} ${route.docPath}`, res.status, res.body.code, res.body.detail]).toEqual([
        `${route.method} ${route.docPath}`,
        422,
        'unknown_parameter',
        'no_such_thing: is not a parameter of this request',
      ])
      expect(res.body.errors).toEqual([{ field: 'no_such_thing', code: 'unknown_parameter', detail: res.body.detail }])
      const takes = Object.keys(route.def.query?.properties ?? {})
      if (route.method === 'GET' && !takes.includes('limit')) {
        const limited = await ask('GET', `${where}?limit=5`, options)
        expect([route.docPath, limited.status, limited.body.code]).toEqual([route.docPath, 422, 'unknown_parameter'])
      }
      // A list (`status=released&status=hidden`) takes a name sent twice; a parameter of one value refuses it.
      const single = takes.find((name) => route.def.query!.properties[name].type !== 'array')
      if (single) {
        const twice = await ask(route.method, `${where}?${single}=1&${single}=2`, options)
        expect([route.docPath, twice.status, twice.body.code]).toEqual([route.docPath, 422, 'repeated_parameter'])
      }
    }
    // Elsewhere a query is read as before: /healthz takes a cache buster.
    expect((await ask('GET', '/healthz?_=1')).body.code).not.toBe('unknown_parameter')
  })

  it('gives every answer an X-Request-Id', () => {
    expect(sent.length).toBeGreaterThan(100)
    for (const res of sent) expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/)
  })
})
