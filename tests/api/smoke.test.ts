import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

describe('GET /api/admin/whoami', () => {
  it('answers 401 to an anonymous caller', async () => {
    const res = await s.req('GET', '/api/admin/whoami')
    expect(res.status).toBe(401)
    expect(typeof res.body.detail).toBe('string')
  })
  it('answers through a session, a key and the break-glass token', async () => {
    const admin = await s.as(ROLES.admin)
    const bySession = await s.req('GET', '/api/admin/whoami', { cookie: admin.cookie })
    expect(bySession.status).toBe(200)
    expect(bySession.body.via).toBe('session')
    expect(bySession.body.person.email).toBe(admin.email)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    const byKey = await s.req('GET', '/api/admin/whoami', { key })
    expect(byKey.body).toMatchObject({ via: 'key', capabilities: ['leads:read'] })
    const byToken = await s.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN })
    expect(byToken.body).toMatchObject({ via: 'break_glass', person: null })
  })
})
