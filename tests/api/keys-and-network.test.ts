// API keys (mint, list, revoke, scopes, expiry) and the network rules for keys and the break-glass token.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

const whoami = (o: { cookie?: string; key?: string; token?: string; headers?: Record<string, string> }) =>
  s.req('GET', '/api/admin/whoami', o)

describe('POST /api/admin/keys', () => {
  it('answers 201 with the secret once; the list never shows it again', async () => {
    const leader = await s.as(ROLES.packLeader)
    const res = await s.req('POST', '/api/admin/keys', {
      cookie: leader.cookie,
      json: { label: 'uploader', scopes: ['leads:read'], expires_days: 30 },
    })
    expect(res.status).toBe(201)
    expect(res.body.key).toMatch(/^site_[0-9A-Za-z]{49}$/)
    expect(res.body).toMatchObject({ label: 'uploader', scopes: ['leads:read'], state: 'active', hint: res.body.key.slice(5, 9) })
    expect(Date.parse(res.body.expires_at) - Date.now()).toBeGreaterThan(29.9 * 86_400_000)
    const list = await s.req('GET', '/api/admin/keys', { cookie: leader.cookie })
    expect(list.status).toBe(200)
    expect(list.text).not.toContain(res.body.key)
    expect(list.text).not.toContain(res.body.key.slice(9, 30))
    expect(list.body.keys[0]).toMatchObject({ id: res.body.id, state: 'active' })
    const stored = await s.db.selectFrom('api_keys').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain(res.body.key)
  })

  it('lists newest first and offers only scopes that may go on a key', async () => {
    const admin = await s.as(ROLES.admin)
    await s.mintKey(admin.cookie, ['leads:read'])
    const second = await s.mintKey(admin.cookie, ['history:read'])
    const list = await s.req('GET', '/api/admin/keys', { cookie: admin.cookie })
    expect(list.body.keys.map((k: any) => k.id)[0]).toBe(second.id)
    expect(list.body.grantable_scopes).toContain('settings:write')
    for (const never of ['apikeys:own', 'api:docs', 'people:manage']) expect(list.body.grantable_scopes).not.toContain(never)
  })

  it('answers 422 for a scope that cannot be put on a key, a bad expiry, an unknown scope or an empty list', async () => {
    const owner = await s.as(ROLES.owner)
    for (const scopes of [['apikeys:own'], ['api:docs'], ['people:manage'], ['no:such'], []]) {
      const res = await s.req('POST', '/api/admin/keys', { cookie: owner.cookie, json: { label: 'x', scopes } })
      expect(res.status, JSON.stringify(scopes)).toBe(422)
    }
    for (const expires_days of [0, 366, 1.5]) {
      expect(
        (await s.req('POST', '/api/admin/keys', { cookie: owner.cookie, json: { label: 'x', scopes: ['leads:read'], expires_days } }))
          .status,
      ).toBe(422)
    }
  })

  it('answers 403 for a scope the caller does not hold', async () => {
    const leader = await s.as(ROLES.packLeader)
    const res = await s.req('POST', '/api/admin/keys', { cookie: leader.cookie, json: { label: 'x', scopes: ['settings:write'] } })
    expect(res.status).toBe(403)
  })

  it('answers 403 to a key (a key cannot mint keys) and to the break-glass token (it owns no keys)', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read', 'settings:write'])
    expect((await s.req('POST', '/api/admin/keys', { key, json: { label: 'x', scopes: ['leads:read'] } })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/keys', { key })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/keys', { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await s.req('POST', '/api/admin/keys', { token: ADMIN_TOKEN, json: { label: 'x', scopes: ['leads:read'] } })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/keys')).status).toBe(401)
  })

  it('lets every role own keys', async () => {
    for (const role of Object.values(ROLES)) {
      const p = await s.as(role)
      expect((await s.req('GET', '/api/admin/keys', { cookie: p.cookie })).status).toBe(200)
    }
  })
})

describe('DELETE /api/admin/keys/:id', () => {
  it('revokes (200, row kept), then 409; the revoked key gets 401', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await whoami({ key })).status).toBe(200)
    const res = await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })
    expect(res.status).toBe(200)
    expect(res.body.key.state).toBe('revoked')
    expect((await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })).status).toBe(409)
    expect((await whoami({ key })).status).toBe(401)
    const list = await s.req('GET', '/api/admin/keys', { cookie: admin.cookie })
    expect(list.body.keys.find((k: any) => k.id === id).state).toBe('revoked')
  })

  it("answers 404, never 403, for another person's key and for an unknown id", async () => {
    const a = await s.as(ROLES.admin)
    const b = await s.as(ROLES.owner)
    const { id, key } = await s.mintKey(a.cookie, ['leads:read'])
    expect((await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: b.cookie })).status).toBe(404)
    expect((await s.req('DELETE', '/api/admin/keys/999999', { cookie: b.cookie })).status).toBe(404)
    expect((await s.req('DELETE', '/api/admin/keys/abc', { cookie: b.cookie })).status).toBe(404)
    expect((await whoami({ key })).status).toBe(200)
  })

  it('logs keys.mint and keys.revoke with the actor', async () => {
    const admin = await s.as(ROLES.admin)
    const { id } = await s.mintKey(admin.cookie, ['leads:read'])
    await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })
    const kinds = await s.db.selectFrom('action_log').select(['kind', 'actor']).where('actor', '=', admin.email).execute()
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['keys.mint', 'keys.revoke']))
  })
})

describe('keys in use', () => {
  it('answers 401 to an expired key, a malformed key, a wrong checksum and a key whose owner is disabled', async () => {
    const admin = await s.as(ROLES.admin)
    const expired = await s.mintKey(admin.cookie, ['leads:read'], { expires_days: 1 })
    await s.db.updateTable('api_keys').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', expired.id).execute()
    expect((await whoami({ key: expired.key })).status).toBe(401)
    expect((await s.req('GET', '/api/admin/keys', { cookie: admin.cookie })).body.keys.find((k: any) => k.id === expired.id).state).toBe(
      'expired',
    )
    expect((await whoami({ key: 'site_short' })).status).toBe(401)
    const good = await s.mintKey(admin.cookie, ['leads:read'])
    const flipped = good.key.slice(0, 10) + (good.key[10] === 'a' ? 'b' : 'a') + good.key.slice(11)
    expect((await whoami({ key: flipped })).status).toBe(401)
    expect((await whoami({ headers: { authorization: 'Basic abc' } })).status).toBe(401)
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', admin.id).execute()
    expect((await whoami({ key: good.key })).status).toBe(401)
  })

  it('answers 403 outside the key scope, and narrows at once when the owner is demoted', async () => {
    const admin = await s.as(ROLES.admin)
    const owner = await s.as(ROLES.owner)
    const { key } = await s.mintKey(admin.cookie, ['leads:read', 'settings:write'])
    expect((await s.req('GET', '/api/admin/settings', { key })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/history', { key })).status).toBe(403)
    expect(
      (await s.req('PUT', `/api/admin/people/${admin.id}/roles`, { cookie: owner.cookie, json: { global_role: null, units: [] } })).status,
    ).toBe(200)
    expect((await s.req('GET', '/api/admin/settings', { key })).status).toBe(403)
    expect((await whoami({ key })).body.capabilities).toEqual([])
  })

  it('writes last_used_at on first use and not again within a minute', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['leads:read'])
    const read = async () =>
      (await s.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at
    expect(await read()).toBeNull()
    await whoami({ key })
    const first = await read()
    expect(first).not.toBeNull()
    await Bun.sleep(5)
    for (let i = 0; i < 5; i++) await whoami({ key })
    expect(await read()).toBe(first)
  })

  it('is not read outside /api/admin', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    const res = await s.req('POST', '/logout', { key })
    expect(res.status).toBe(200)
  })
})

describe('break-glass token from the LAN', () => {
  it('works on whoami with every capability but the person ones', async () => {
    const res = await whoami({ token: ADMIN_TOKEN })
    expect(res.status).toBe(200)
    expect(res.body.capabilities).toContain('settings:write')
    for (const c of ['apikeys:own', 'account:self', 'roster:write', 'api:docs', 'people:invite_leader', 'people:manage'])
      expect(res.body.capabilities).not.toContain(c)
  })
  it('answers 401 to a wrong token, and every write it makes is logged as break_glass', async () => {
    expect((await whoami({ token: 'wrong' })).status).toBe(401)
    await s.req('PUT', '/api/admin/settings/announcements.live_cap', { token: ADMIN_TOKEN, json: { value: 4 } })
    const log = await s.db
      .selectFrom('action_log')
      .selectAll()
      .where('kind', '=', 'settings.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(log.actor).toBe('break_glass')
  })
})

describe('network rules', () => {
  it('refuses the break-glass token everywhere when ADMIN_TOKEN is unset', async () => {
    const off = await startServer({ ADMIN_TOKEN: '' })
    try {
      expect((await off.req('GET', '/api/admin/whoami', { token: '' })).status).toBe(401)
      expect((await off.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN })).status).toBe(401)
    } finally {
      await off.stop()
    }
  })

  it('from outside the LAN: keys 403 while api_keys_from is lan, 200 after anywhere; break-glass 403; sessions work', async () => {
    // Loopback is outside the LAN for this server.
    const outside = await startServer({ LAN_CIDRS: '10.0.0.0/8' })
    try {
      const owner = await outside.as(ROLES.owner)
      expect((await outside.req('GET', '/api/admin/whoami', { cookie: owner.cookie })).status).toBe(200)
      const { key } = await outside.mintKey(owner.cookie, ['leads:read'])
      expect((await outside.req('GET', '/api/admin/whoami', { key })).status).toBe(403)
      expect((await outside.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN })).status).toBe(403)
      expect((await outside.req('GET', '/api/admin/settings', { token: ADMIN_TOKEN })).status).toBe(403)
      // An untrusted peer cannot claim to be on the LAN.
      expect((await outside.req('GET', '/api/admin/whoami', { key, headers: { 'x-forwarded-for': '10.1.2.3' } })).status).toBe(403)
      expect(
        (await outside.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN, headers: { 'x-forwarded-for': '10.1.2.3' } })).status,
      ).toBe(403)
      expect(
        (await outside.req('PUT', '/api/admin/settings/api_keys_from', { cookie: owner.cookie, json: { value: 'anywhere' } })).status,
      ).toBe(200)
      expect((await outside.req('GET', '/api/admin/whoami', { key })).status).toBe(200)
      expect((await outside.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN })).status).toBe(403)
    } finally {
      await outside.stop()
    }
  })

  it('believes X-Forwarded-For only from a trusted proxy, right-most untrusted hop first', async () => {
    const proxied = await startServer({ LAN_CIDRS: '10.0.0.0/8', TRUST_PROXY: '127.0.0.1/32' })
    try {
      const owner = await proxied.as(ROLES.owner)
      const { key } = await proxied.mintKey(owner.cookie, ['leads:read'])
      const as = (xff: string) => proxied.req('GET', '/api/admin/whoami', { key, headers: { 'x-forwarded-for': xff } })
      expect((await as('10.1.2.3')).status).toBe(200)
      expect((await as('8.8.8.8')).status).toBe(403)
      expect((await as('10.1.2.3, 8.8.8.8')).status).toBe(403)
      expect((await as('8.8.8.8, 10.1.2.3')).status).toBe(200)
      expect((await as('garbage')).status).toBe(403)
      expect(
        (await proxied.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN, headers: { 'x-forwarded-for': '10.9.9.9' } })).status,
      ).toBe(200)
      expect(
        (await proxied.req('GET', '/api/admin/whoami', { token: ADMIN_TOKEN, headers: { 'x-forwarded-for': '1.1.1.1' } })).status,
      ).toBe(403)
    } finally {
      await proxied.stop()
    }
  })
})
