// What becomes of a person's API keys when their account may have been taken: a reset link revokes them, and a
// voluntary password change keeps them and says how many (DELETE /api/admin/keys revokes them all).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { PASSWORD, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

const whoami = (key: string) => s.req('GET', '/api/admin/whoami', { key })

describe('a password reset', () => {
  it('revokes the person’s keys (an account recovery), logged', async () => {
    const owner = await s.as(ROLES.owner)
    const admin = await s.as(ROLES.admin)
    const { key, id } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await whoami(key)).status).toBe(200)
    const reset = await s.req('POST', `/api/admin/people/${admin.id}/reset`, { cookie: owner.cookie })
    const token = reset.body.url.split('/reset/')[1]
    expect((await s.req('POST', `/api/reset/${token}`, { json: { password: 'a new long password' } })).status).toBe(200)
    expect((await whoami(key)).status).toBe(401)
    const row = await s.db.selectFrom('api_keys').select('revoked_at').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.revoked_at).not.toBeNull()
    expect((await s.lastLog('people.password_reset')).summary).toContain('their key was revoked')
  })
})

describe('a voluntary password change', () => {
  it('keeps the keys and says how many still work; DELETE /api/admin/keys revokes them all', async () => {
    const admin = await s.as(ROLES.admin)
    const one = await s.mintKey(admin.cookie, ['leads:read'])
    const two = await s.mintKey(admin.cookie, ['leads:read'])
    const changed = await s.req('POST', '/api/admin/account/password', {
      cookie: admin.cookie,
      json: { current_password: PASSWORD, new_password: 'another long password' },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.keys_active).toBe(2)
    expect((await whoami(one.key)).status).toBe(200)
    const revoked = await s.req('DELETE', '/api/admin/keys', { cookie: admin.cookie })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ revoked: 2 })
    expect((await whoami(one.key)).status).toBe(401)
    expect((await whoami(two.key)).status).toBe(401)
    expect((await s.lastLog('keys.revoke')).summary).toBe('Revoked all their keys (2)')
    expect((await s.req('DELETE', '/api/admin/keys', { cookie: admin.cookie })).body).toEqual({ revoked: 0 })
  })
})
