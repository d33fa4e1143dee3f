// API keys over a real port: minting, listing, revoking, scopes, expiry, dead owners, bookkeeping and the action log.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

const UNSCOPABLE = ['apikeys:own', 'api:docs', 'people:manage']

const whoami = (key: string) => s.req('GET', '/api/admin/whoami', { key })
const listKeys = (cookie: string) => s.req('GET', '/api/admin/keys', { cookie })
/** Mints as `o`; a session confirms it is its person first, as minting needs. */
async function mint(o: { cookie?: string; key?: string; token?: string }, json: Record<string, unknown>) {
  if (o.cookie) await s.confirm(o.cookie)
  return s.req('POST', '/api/admin/keys', { ...o, json: { label: 'script', ...json } })
}
const keyRow = (id: number) => s.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('GET /api/admin/keys', () => {
  it('answers each credential with the documented status', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    const cases: [string, () => Promise<{ cookie?: string; key?: string; token?: string }>, number][] = [
      ['anonymous', async () => ({}), 401],
      ['member', async () => ({ cookie: (await s.as(ROLES.member)).cookie }), 200],
      ['pack leader', async () => ({ cookie: (await s.as(ROLES.packLeader)).cookie }), 200],
      ['troop leader', async () => ({ cookie: (await s.as(ROLES.troopLeader)).cookie }), 200],
      ['admin', async () => ({ cookie: admin.cookie }), 200],
      ['owner', async () => ({ cookie: (await s.as(ROLES.owner)).cookie }), 200],
      ['key', async () => ({ key }), 403],
      ['break-glass', async () => ({ token: ADMIN_TOKEN }), 403],
    ]
    for (const [who, credential, status] of cases) {
      const res = await s.req('GET', '/api/admin/keys', await credential())
      expect(res.status, who).toBe(status)
      if (status === 200) {
        expect(Array.isArray(res.body.keys), who).toBe(true)
        expect(Array.isArray(res.body.grantable_scopes), who).toBe(true)
      } else expect(typeof res.body.detail, who).toBe('string')
    }
  })

  it('never contains a secret, and lists the newest first with each state', async () => {
    const admin = await s.as(ROLES.admin)
    const first = await s.mintKey(admin.cookie, ['leads:read'])
    const second = await s.mintKey(admin.cookie, ['history:read'], { expires_days: 1 })
    const third = await s.mintKey(admin.cookie, ['settings:write'])
    expect((await s.req('DELETE', `/api/admin/keys/${first.id}`, { cookie: admin.cookie })).status).toBe(200)
    await s.db.updateTable('api_keys').set({ expires_at: '2001-01-01T00:00:00.000Z' }).where('id', '=', second.id).execute()
    const res = await listKeys(admin.cookie)
    expect(res.status).toBe(200)
    for (const secret of [first.key, second.key, third.key]) {
      expect(res.text).not.toContain(secret)
      expect(res.text).not.toContain(secret.slice(5))
    }
    expect(res.body.keys.map((k: any) => [k.id, k.state])).toEqual([
      [third.id, 'active'],
      [second.id, 'expired'],
      [first.id, 'revoked'],
    ])
    for (const k of res.body.keys) {
      expect(k.key).toBeUndefined()
      expect(k.token_hash).toBeUndefined()
    }
    expect(res.body.keys[0]).toMatchObject({ label: 'test key', scopes: ['settings:write'], hint: third.key.slice(5, 9) })
  })

  it('offers as grantable scopes what the caller holds, minus apikeys:own, api:docs and people:manage', async () => {
    const owner = await s.as(ROLES.owner)
    const ownerScopes = (await listKeys(owner.cookie)).body.grantable_scopes
    for (const never of UNSCOPABLE) expect(ownerScopes).not.toContain(never)
    expect(ownerScopes).toEqual(expect.arrayContaining(['leads:read', 'settings:write', 'history:read', 'people:invite_admin']))
    const leader = await s.as(ROLES.packLeader)
    const leaderScopes = (await listKeys(leader.cookie)).body.grantable_scopes
    expect(leaderScopes).toContain('leads:read')
    for (const never of [...UNSCOPABLE, 'settings:write', 'history:read']) expect(leaderScopes).not.toContain(never)
    const member = await s.as(ROLES.member)
    expect((await listKeys(member.cookie)).body.grantable_scopes).toEqual(['account:self'])
  })

  it('answers 403 to the break-glass token, which owns no keys', async () => {
    expectDetail(await s.req('GET', '/api/admin/keys', { token: ADMIN_TOKEN }), 403)
  })
})

describe('POST /api/admin/keys', () => {
  it('answers 201 with the key once; it is never shown again', async () => {
    const leader = await s.as(ROLES.packLeader)
    const res = await mint({ cookie: leader.cookie }, { label: 'uploader', scopes: ['leads:read'] })
    expect(res.status).toBe(201)
    expect(typeof res.body.id).toBe('number')
    expect(res.body.key.startsWith('site_')).toBe(true)
    expect(res.body.key).toMatch(/^site_[0-9A-Za-z]{49}$/)
    expect(res.body).toMatchObject({ label: 'uploader', scopes: ['leads:read'], state: 'active', expires_at: null })
    const secret: string = res.body.key
    const later = [
      await listKeys(leader.cookie),
      await whoami(secret),
      await s.req('GET', '/api/admin/whoami', { cookie: leader.cookie }),
      await s.req('DELETE', `/api/admin/keys/${res.body.id}`, { cookie: leader.cookie }),
      await listKeys(leader.cookie),
    ]
    expect(later.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
    for (const r of later) expect(r.text).not.toContain(secret)
    expect(JSON.stringify(await keyRow(res.body.id))).not.toContain(secret)
  })

  it('sets expires_at from expires_days, and accepts 1 and 365', async () => {
    const admin = await s.as(ROLES.admin)
    for (const days of [1, 365]) {
      const res = await mint({ cookie: admin.cookie }, { scopes: ['leads:read'], expires_days: days })
      expect(res.status).toBe(201)
      const ms = Date.parse(res.body.expires_at) - Date.now()
      expect(Math.abs(ms - days * 86_400_000)).toBeLessThan(60_000)
    }
  })

  it('answers 422 when expires_days is 0 or 366', async () => {
    const admin = await s.as(ROLES.admin)
    for (const expires_days of [0, 366]) {
      const res = await mint({ cookie: admin.cookie }, { scopes: ['leads:read'], expires_days })
      expect(res.status, String(expires_days)).toBe(422)
      expect(typeof res.body.detail).toBe('string')
      expect(res.body.detail).toBe('expires_days: must be a whole number of days from 1 to 365')
    }
    expect((await listKeys(admin.cookie)).body.keys).toEqual([])
  })

  it('answers 422 for a scope that cannot be put on a key (apikeys:own, api:docs, people:manage)', async () => {
    const owner = await s.as(ROLES.owner)
    for (const scope of UNSCOPABLE) {
      const res = await mint({ cookie: owner.cookie }, { scopes: ['leads:read', scope] })
      expect(res.status, scope).toBe(422)
      expect(typeof res.body.detail).toBe('string')
      expect(res.body.detail).toContain(scope)
    }
    expect((await listKeys(owner.cookie)).body.keys).toEqual([])
  })

  it('answers 403 for a scope the caller does not hold (a leader asking for settings:write)', async () => {
    const leader = await s.as(ROLES.packLeader)
    const res = await mint({ cookie: leader.cookie }, { scopes: ['leads:read', 'settings:write'] })
    expectDetail(res, 403)
    expect((await listKeys(leader.cookie)).body.keys).toEqual([])
  })

  it('answers 403 to a key: a key cannot mint keys', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read', 'settings:write', 'history:read'])
    expectDetail(await mint({ key }, { scopes: ['leads:read'] }), 403)
    expect((await listKeys(admin.cookie)).body.keys).toHaveLength(1)
  })

  it('answers 403 to the break-glass token, which cannot own keys', async () => {
    const count = async () => (await s.db.selectFrom('api_keys').select('id').execute()).length
    const before = await count()
    expectDetail(await mint({ token: ADMIN_TOKEN }, { scopes: ['leads:read'] }), 403)
    expect(await count()).toBe(before)
  })

  it('answers 401 to an anonymous caller', async () => {
    expectDetail(await mint({}, { scopes: ['leads:read'] }), 401)
  })

  it('appears in the action log as keys.mint with the caller as actor', async () => {
    const admin = await s.as(ROLES.admin)
    const owner = await s.as(ROLES.owner)
    const { id } = await s.mintKey(admin.cookie, ['leads:read'])
    const res = await s.req('GET', `/api/admin/history?kind=keys.&actor=${encodeURIComponent(admin.email)}`, { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(res.body.entries).toHaveLength(1)
    expect(res.body.entries[0]).toMatchObject({ kind: 'keys.mint', actor: admin.email })
    expect(res.body.entries[0].summary).toBe('Made the key “test key” (leads:read)')
    expect(id).toBeGreaterThan(0)
  })
})

describe('GET /api/admin/keys/:id', () => {
  it('answers one of your keys as the list and the minting do, without the secret', async () => {
    const admin = await s.as(ROLES.admin)
    const minted = await mint({ cookie: admin.cookie }, { scopes: ['leads:read'], expires_days: 30 })
    const res = await s.req('GET', `/api/admin/keys/${minted.body.id}`, { cookie: admin.cookie })
    expect(res.status).toBe(200)
    const { key: secret, ...shown } = minted.body
    expect(res.body).toEqual(shown)
    expect(res.text).not.toContain(secret)
    expect(res.body).toEqual((await listKeys(admin.cookie)).body.keys.find((k: any) => k.id === minted.body.id))
  })

  it("answers 404, never 403, for another person's key and an unknown id; 403 to a key and the break-glass token", async () => {
    const a = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(a.cookie, ['leads:read'])
    expectDetail(await s.req('GET', `/api/admin/keys/${id}`, { cookie: (await s.as(ROLES.owner)).cookie }), 404)
    expectDetail(await s.req('GET', '/api/admin/keys/999999', { cookie: a.cookie }), 404)
    expectDetail(await s.req('GET', `/api/admin/keys/${id}`, { key }), 403)
    expectDetail(await s.req('GET', `/api/admin/keys/${id}`, { token: ADMIN_TOKEN }), 403)
  })
})

describe('DELETE /api/admin/keys/:id', () => {
  it('answers 200 and revokes (the row stays), then 409 when already revoked; the key then gets 401', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await whoami(key)).status).toBe(200)
    const res = await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, state: 'revoked' })
    expect(typeof res.body.revoked_at).toBe('string')
    expect((await s.req('GET', `/api/admin/keys/${id}`, { cookie: admin.cookie })).body).toEqual(res.body)
    expectDetail(await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie }), 409)
    expectDetail(await whoami(key), 401)
    expect((await keyRow(id)).revoked_at).not.toBeNull()
  })

  it("answers 404, never 403, for another person's key, an unknown id and a non-numeric id", async () => {
    const a = await s.as(ROLES.admin)
    const b = await s.as(ROLES.owner)
    const { id, key } = await s.mintKey(a.cookie, ['leads:read'])
    expectDetail(await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: b.cookie }), 404)
    expectDetail(await s.req('DELETE', '/api/admin/keys/999999', { cookie: b.cookie }), 404)
    expectDetail(await s.req('DELETE', '/api/admin/keys/abc', { cookie: b.cookie }), 404)
    expectDetail(await s.req('DELETE', '/api/admin/keys/abc', { cookie: a.cookie }), 404)
    expect((await keyRow(id)).revoked_at).toBeNull()
    expect((await whoami(key)).status).toBe(200)
  })

  it('answers 403 to a key and to the break-glass token', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['leads:read'])
    expectDetail(await s.req('DELETE', `/api/admin/keys/${id}`, { key }), 403)
    expectDetail(await s.req('DELETE', `/api/admin/keys/${id}`, { token: ADMIN_TOKEN }), 403)
    expect((await keyRow(id)).revoked_at).toBeNull()
  })

  it('appears in the action log as keys.revoke with the caller as actor', async () => {
    const admin = await s.as(ROLES.admin)
    const owner = await s.as(ROLES.owner)
    const { id } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })).status).toBe(200)
    const res = await s.req('GET', `/api/admin/history?kind=keys.&actor=${encodeURIComponent(admin.email)}`, { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(res.body.entries.map((e: any) => [e.kind, e.actor])).toEqual([
      ['keys.revoke', admin.email],
      ['keys.mint', admin.email],
    ])
    expect(res.body.entries[0].summary).toBe('Revoked the key “test key”')
  })
})

describe('GET /api/admin/whoami (with a key)', () => {
  it('answers 401 to an expired key', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['leads:read'], { expires_days: 30 })
    await s.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', id)
      .execute()
    expectDetail(await whoami(key), 401)
    expectDetail(await s.req('GET', '/api/admin/leads', { key }), 401)
  })

  it('answers 401 to a malformed key and to a key with a wrong checksum', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    const flip = (k: string, i: number) => k.slice(0, i) + (k[i] === 'a' ? 'b' : 'a') + k.slice(i + 1)
    for (const bad of ['site_short', key.slice(0, -1), key + 'a', 'other_' + key.slice(5), flip(key, 20), flip(key, key.length - 1)]) {
      expectDetail(await whoami(bad), 401)
    }
    expectDetail(await s.req('GET', '/api/admin/whoami', { headers: { authorization: 'Bearer' } }), 401)
    expect((await whoami(key)).status).toBe(200)
  })

  it('answers 401 to a key whose owner is disabled', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', admin.id).execute()
    expectDetail(await whoami(key), 401)
    expectDetail(await s.req('GET', '/api/admin/leads', { key }), 401)
  })

  it('answers 403 on a route outside the key scope', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await s.req('GET', '/api/admin/leads', { key })).status).toBe(200)
    expectDetail(await s.req('GET', '/api/admin/settings', { key }), 403)
    expect((await s.req('GET', '/api/admin/settings', { cookie: admin.cookie })).status).toBe(200)
    const me = await whoami(key)
    expect(me.body).toMatchObject({ via: 'key', person: { id: admin.id, email: admin.email }, capabilities: ['leads:read'] })
  })

  it("narrows a key's capabilities when its owner is demoted in the database", async () => {
    const p = await s.as({ global_role: 'admin', units: [{ slug: 'pack', role: 'leader' }] })
    const { key } = await s.mintKey(p.cookie, ['leads:read', 'settings:write', 'history:read'])
    await s.db.updateTable('people').set({ global_role: null }).where('id', '=', p.id).execute()
    const me = await whoami(key)
    expect(me.status).toBe(200)
    expect(me.body.capabilities).toEqual(['leads:read'])
    expectDetail(await s.req('GET', '/api/admin/settings', { key }), 403)
    expect((await s.req('GET', '/api/admin/leads', { key })).status).toBe(200)
  })

  it("narrows a key's capabilities at once when its owner is demoted through the roles route", async () => {
    const owner = await s.as(ROLES.owner)
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read', 'settings:write'])
    expect((await whoami(key)).body.capabilities).toEqual(['leads:read', 'settings:write'])
    const put = await s.req('PUT', `/api/admin/people/${admin.id}/roles`, {
      cookie: owner.cookie,
      json: { global_role: null, units: [] },
    })
    expect(put.status).toBe(200)
    expect((await whoami(key)).body.capabilities).toEqual([])
    expectDetail(await s.req('GET', '/api/admin/settings', { key }), 403)
  })

  it('sets last_used_at on first use and does not rewrite it on a second use within a minute', async () => {
    const admin = await s.as(ROLES.admin)
    const { id, key } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await keyRow(id)).last_used_at).toBeNull()
    const before = Date.now()
    expect((await whoami(key)).status).toBe(200)
    const first = (await keyRow(id)).last_used_at
    expect(first).not.toBeNull()
    expect(Date.parse(first!)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now())
    await Bun.sleep(20)
    expect((await whoami(key)).status).toBe(200)
    expect((await keyRow(id)).last_used_at).toBe(first)
    const listed = (await listKeys(admin.cookie)).body.keys.find((k: any) => k.id === id)
    expect(listed.last_used_at).toBe(first)
  })
})

describe('keys outside /api/admin', () => {
  it('are not read there: a key on a public route neither signs in nor is refused', async () => {
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['leads:read'])
    expect((await s.req('POST', '/logout', { key })).status).toBe(200)
    expect((await s.req('GET', '/api/catalog', { key })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/whoami', { key })).status).toBe(200)
  })
})
