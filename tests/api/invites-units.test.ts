// Invites (grant limits, one-time links, 14-day expiry, replacement), the setup link, and the units list by role.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { newSetupLink } from '../../server/people/setup.ts'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'

let s: TestServer
let unitId: Record<string, number>
beforeAll(async () => {
  s = await startServer()
  const units = await s.db.selectFrom('units').select(['id', 'slug']).execute()
  unitId = Object.fromEntries(units.map((u) => [u.slug, u.id]))
})
afterAll(() => s.stop())

const invite = (json: unknown, creds: { cookie?: string; key?: string; token?: string }) =>
  s.req('POST', '/api/admin/people/invite', { ...creds, json })
const tokenOf = (url: string) => url.split('/invite/')[1]

describe('POST /api/admin/people/invite', () => {
  it('answers 201 with the URL once, valid 14 days, and logs people.invite', async () => {
    const leader = await s.as(ROLES.packLeader)
    const email = uniqueEmail('new.leader')
    const res = await invite({ email, units: [{ unit_id: unitId.pack, role: 'leader', title: 'Den leader' }] }, leader)
    expect(res.status).toBe(201)
    expect(res.body.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/invite\/[\w-]{40,}$/)
    expect(typeof res.body.id).toBe('number')
    const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(13.99)
    expect(days).toBeLessThan(14.01)
    const stored = await s.db.selectFrom('invites').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain(tokenOf(res.body.url))
    const log = await s.db
      .selectFrom('action_log')
      .selectAll()
      .where('kind', '=', 'people.invite')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(log.actor).toBe(leader.email)
  })

  it('answers 422 for a bad email, an unknown field and an unknown unit', async () => {
    const admin = await s.as(ROLES.admin)
    expect((await invite({ email: 'not-an-email' }, admin)).status).toBe(422)
    expect((await invite({ email: uniqueEmail(), colour: 'red' }, admin)).status).toBe(422)
    expect((await invite({ email: uniqueEmail(), units: [{ unit_id: 999, role: 'member' }] }, admin)).status).toBe(422)
    expect((await invite({ email: uniqueEmail(), units: [{ unit_id: unitId.pack, role: 'chief' }] }, admin)).status).toBe(422)
  })

  it('answers 403 when granting what the caller does not hold', async () => {
    const admin = await s.as(ROLES.admin)
    const leader = await s.as(ROLES.packLeader)
    expect((await invite({ email: uniqueEmail(), global_role: 'owner' }, admin)).status).toBe(403)
    expect((await invite({ email: uniqueEmail(), global_role: 'admin' }, admin)).status).toBe(201)
    expect((await invite({ email: uniqueEmail(), global_role: 'admin' }, leader)).status).toBe(403)
    expect((await invite({ email: uniqueEmail(), units: [{ unit_id: unitId.troop, role: 'member' }] }, leader)).status).toBe(403)
    expect((await invite({ email: uniqueEmail(), units: [{ unit_id: unitId.pack, role: 'member' }] }, leader)).status).toBe(201)
    const owner = await s.as(ROLES.owner)
    expect((await invite({ email: uniqueEmail(), global_role: 'owner' }, owner)).status).toBe(201)
  })

  it('answers 401 anonymous, 403 member and break-glass; 409 for an email that has an account', async () => {
    expect((await invite({ email: uniqueEmail() }, {})).status).toBe(401)
    expect((await invite({ email: uniqueEmail() }, await s.as(ROLES.member))).status).toBe(403)
    expect((await invite({ email: uniqueEmail() }, { token: ADMIN_TOKEN })).status).toBe(403)
    const existing = await s.person(ROLES.member)
    expect((await invite({ email: existing.email.toUpperCase() }, await s.as(ROLES.admin))).status).toBe(409)
  })
})

describe('POST /api/invite/:token', () => {
  it('creates the account with the invited roles (201), signs in, and the link is then used (410)', async () => {
    const leader = await s.as(ROLES.troopLeader)
    const email = uniqueEmail('scoutmaster')
    const { body } = await invite({ email, units: [{ unit_id: unitId.troop, role: 'leader' }] }, leader)
    const res = await s.req('POST', `/api/invite/${tokenOf(body.url)}`, { json: { password: 'a good password', name: 'Sam' } })
    expect(res.status).toBe(201)
    const cookie = res.headers.get('set-cookie')!.split(';')[0]
    const me = await s.req('GET', '/api/admin/whoami', { cookie })
    expect(me.body.person.email).toBe(email)
    expect(me.body.capabilities).toEqual(expect.arrayContaining(['leads:read', 'unit:write_own']))
    expect((await s.req('GET', '/api/admin/units', { cookie })).body.units.map((u: any) => u.slug)).toEqual(['troop'])
    expect((await s.req('POST', `/api/invite/${tokenOf(body.url)}`, { json: { password: 'another password' } })).status).toBe(410)
    expect((await s.signIn(email, 'a good password')).startsWith('site_session=')).toBe(true)
  })

  it('answers 410 for an expired invite and for one replaced by a newer invite; 404 unknown; 422 short password', async () => {
    const admin = await s.as(ROLES.admin)
    const email = uniqueEmail('family')
    const first = (await invite({ email }, admin)).body
    const second = (await invite({ email }, admin)).body
    expect((await s.req('POST', `/api/invite/${tokenOf(first.url)}`, { json: { password: 'a good password' } })).status).toBe(410)
    expect((await s.req('POST', `/api/invite/${tokenOf(second.url)}`, { json: { password: 'short' } })).status).toBe(422)
    await s.db.updateTable('invites').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', second.id).execute()
    expect((await s.req('POST', `/api/invite/${tokenOf(second.url)}`, { json: { password: 'a good password' } })).status).toBe(410)
    expect((await s.req('POST', '/api/invite/no-such-token', { json: { password: 'a good password' } })).status).toBe(404)
  })
})

describe('POST /api/setup/:token', () => {
  it('creates the first owner once (201), then 410; no link once an owner exists', async () => {
    const fresh = await startServer()
    try {
      const url = (await newSetupLink(fresh.db, 'http://x'))!
      const token = url.split('/setup/')[1]
      const res = await fresh.req('POST', `/api/setup/${token}`, { json: { email: 'first@example.org', password: 'a good password' } })
      expect(res.status).toBe(201)
      const me = await fresh.req('GET', '/api/admin/whoami', { cookie: res.headers.get('set-cookie')!.split(';')[0] })
      expect(me.body.person.global_role).toBe('owner')
      expect(
        (await fresh.req('POST', `/api/setup/${token}`, { json: { email: 'second@example.org', password: 'a good password' } })).status,
      ).toBe(410)
      expect(await newSetupLink(fresh.db, 'http://x')).toBeNull()
      expect(
        (await fresh.req('POST', '/api/setup/unknown', { json: { email: 'x@example.org', password: 'a good password' } })).status,
      ).toBe(404)
    } finally {
      await fresh.stop()
    }
  })
})

describe('GET /api/admin/units', () => {
  it('lists only what the caller may edit', async () => {
    const slugs = async (creds: { cookie?: string; token?: string }) =>
      (await s.req('GET', '/api/admin/units', creds)).body.units.map((u: any) => u.slug)
    expect(await slugs(await s.as(ROLES.packLeader))).toEqual(['pack'])
    expect(await slugs(await s.as(ROLES.troopLeader))).toEqual(['troop'])
    expect(await slugs(await s.as(ROLES.admin))).toEqual(['pack', 'troop'])
    expect(await slugs(await s.as(ROLES.owner))).toEqual(['pack', 'troop'])
    expect(await slugs({ token: ADMIN_TOKEN })).toEqual(['pack', 'troop'])
    expect((await s.req('GET', '/api/admin/units', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/units')).status).toBe(401)
  })
})
