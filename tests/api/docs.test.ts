// GET /api/docs: the live route registry, for signed-in leaders only, produced from the route files.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { loadRoutes } from '../../server/routes.ts'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

describe('GET /api/docs', () => {
  it('answers 401 anonymous, 403 member, 403 key, 403 break-glass, 200 leader', async () => {
    const member = await s.as(ROLES.member)
    const leader = await s.as(ROLES.packLeader)
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    for (const p of ['/api/docs', '/api/docs/json']) {
      expect((await s.req('GET', p)).status).toBe(401)
      expect((await s.req('GET', p, { cookie: member.cookie })).status).toBe(403)
      expect((await s.req('GET', p, { key })).status).toBe(403)
      expect((await s.req('GET', p, { token: ADMIN_TOKEN })).status).toBe(403)
      expect((await s.req('GET', p, { cookie: leader.cookie })).status).toBe(200)
    }
  })

  it('lists every mounted route with its capability, as the route files declare it', async () => {
    const leader = await s.as(ROLES.troopLeader)
    const doc = (await s.req('GET', '/api/docs/json', { cookie: leader.cookie })).body
    const routes = await loadRoutes()
    expect(routes.length).toBeGreaterThan(10)
    for (const route of routes) {
      const op = doc.paths[route.docPath]?.[route.method.toLowerCase()]
      expect(op, `${route.method} ${route.path}`).toBeDefined()
      expect(op['x-capability']).toBe(route.def.auth)
      expect(op.summary).toBe(route.def.summary)
      expect(op['x-route-file']).toBe(route.file)
    }
  })

  it('serves the docs page with its UI bundle from this server, not a CDN', async () => {
    const leader = await s.as(ROLES.packLeader)
    const page = await s.req('GET', '/api/docs', { cookie: leader.cookie })
    expect(page.text).toContain('/api/docs/swagger-ui.js')
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//)
    for (const [asset, type] of [
      ['swagger-ui.js', 'javascript'],
      ['swagger-ui.css', 'css'],
      ['start.js', 'javascript'],
      ['overrides.css', 'css'],
    ]) {
      const res = await s.req('GET', `/api/docs/${asset}`, { cookie: leader.cookie })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain(type)
    }
  })
})
