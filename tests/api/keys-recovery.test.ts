// What becomes of a person's API keys when their account may have been taken: a reset link revokes them, a voluntary
// password change keeps them and says how many (DELETE /api/admin/keys revokes them all), and a person the
// second-factor setting locked to the account page finds their keys refused until they add a factor.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { Secret, TOTP } from 'otpauth'
import { PASSWORD, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'

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

describe('a person locked by security.second_factor', () => {
  it('finds their keys refused with 403 second_factor_required until they add a factor', async () => {
    await withServer({}, async (local) => {
      const owner = await local.as(ROLES.owner)
      const leader = await local.as(ROLES.packLeader)
      const { key } = await local.mintKey(leader.cookie, ['leads:read', 'account:self'])
      await local.req('PUT', '/api/admin/settings/security.second_factor', { cookie: owner.cookie, json: { value: 'leaders' } })
      const due = (await local.req('GET', '/api/admin/whoami', { cookie: leader.cookie })).body.second_factor.due_at
      expect((await local.req('GET', '/api/admin/leads', { key })).status).toBe(200)
      try {
        setSystemTime(new Date(Date.parse(due) + 11_000))
        for (const path of ['/api/admin/leads', '/api/admin/account/sessions']) {
          const refused = await local.req('GET', path, { key })
          expect(refused.status, path).toBe(403)
          expect(refused.body.code, path).toBe('second_factor_required')
        }
        await local.confirm(leader.cookie)
        const started = await local.req('POST', '/api/admin/account/totp', { cookie: leader.cookie })
        const code = new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate()
        expect((await local.req('POST', '/api/admin/account/totp/confirm', { cookie: leader.cookie, json: { code } })).status).toBe(200)
        expect((await local.req('GET', '/api/admin/leads', { key })).status).toBe(200)
      } finally {
        setSystemTime()
      }
    })
  })
})
