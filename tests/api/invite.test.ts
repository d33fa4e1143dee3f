// Invites and first-owner setup: issuing invite links within the caller's grants, accepting them once, invites that
// link the new account to a roster household, and the setup link.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'
import { newSetupLink } from '../../server/people/setup.ts'
import { addHousehold } from '../households.ts'

const BASE = 'http://127.0.0.1:1'
const DAY = 86_400_000

let s: TestServer
let pack: number
let troop: number

beforeAll(async () => {
  s = await startServer()
  pack = (await s.db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()).id
  troop = (await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()).id
})
afterAll(() => s.stop())

const tokenOf = (url: string) => url.slice(`${BASE}/invite/`.length)
const cookieOf = (res: { headers: Headers }) => {
  const header = res.headers.get('set-cookie') ?? ''
  expect(header).toStartWith('site_session=')
  return header.split(';')[0]
}
const whoami = (cookie: string) => s.req('GET', '/api/admin/whoami', { cookie })
const inviteCount = async () => Number((await s.db.selectFrom('invites').select(s.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

// Runs first: the server has no owner yet.
describe('POST /api/setup/:token', () => {
  it('creates the first owner once (201, signed in), reuse 410, and no fresh link once an owner exists', async () => {
    const url = await newSetupLink(s.db, BASE)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:1\/setup\/[^/]+$/)
    const token = url!.split('/setup/')[1]
    const email = uniqueEmail('first-owner')

    expectDetail(await s.req('POST', `/api/setup/${token}`, { json: { email, password: 'short' } }), 422)
    expectDetail(await s.req('POST', `/api/setup/${token}`, { json: { email: 'not-an-email', password: 'long enough pw' } }), 422)
    expectDetail(await s.req('POST', '/api/setup/unknown-token-xyz', { json: { email, password: 'long enough pw' } }), 404)

    const res = await s.req('POST', `/api/setup/${token}`, { json: { email, password: 'long enough pw' } })
    expect(res.status).toBe(201)
    const me = await whoami(cookieOf(res))
    expect(me.status).toBe(200)
    expect(me.body.via).toBe('session')
    expect(me.body.person.email).toBe(email)
    expect(me.body.capabilities).toContain('people:manage')
    const row = await s.db.selectFrom('people').select('global_role').where('email', '=', email).executeTakeFirstOrThrow()
    expect(row.global_role).toBe('owner')
    expect((await s.req('POST', '/login', { json: { email, password: 'long enough pw' } })).status).toBe(200)

    expectDetail(await s.req('POST', `/api/setup/${token}`, { json: { email: uniqueEmail('second'), password: 'long enough pw' } }), 410)
    expect(await newSetupLink(s.db, BASE)).toBeNull()
    const owners = await s.db.selectFrom('people').select('id').where('global_role', '=', 'owner').execute()
    expect(owners).toHaveLength(1)
  })
})

describe('POST /api/admin/people/invite', () => {
  let owner: { email: string; cookie: string }
  let admin: { email: string; cookie: string }
  let packLeader: { email: string; cookie: string }
  let troopLeader: { email: string; cookie: string }
  let member: { email: string; cookie: string }
  beforeAll(async () => {
    owner = await s.as(ROLES.owner)
    admin = await s.as(ROLES.admin)
    packLeader = await s.as(ROLES.packLeader)
    troopLeader = await s.as(ROLES.troopLeader)
    member = await s.as(ROLES.member)
  })
  const invite = (json: unknown, o: Parameters<TestServer['req']>[2] = {}) => s.req('POST', '/api/admin/people/invite', { json, ...o })

  it('answers 201 with {id, url} on PUBLIC_BASE_URL, valid 14 days, and logs people.invite', async () => {
    const email = uniqueEmail('invitee')
    const started = Date.now()
    const res = await invite({ email, units: [{ unit_id: pack, role: 'leader' }] }, { cookie: admin.cookie })
    expect(res.status).toBe(201)
    expect(typeof res.body.id).toBe('number')
    expect(res.body.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/invite\/[A-Za-z0-9_-]{20,}$/)
    const expires = Date.parse(res.body.expires_at)
    expect(expires).toBeGreaterThanOrEqual(started + 14 * DAY - 1000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 14 * DAY + 1000)
    const row = await s.db.selectFrom('invites').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow()
    expect(row.email).toBe(email)
    expect(row.token_hash).not.toContain(tokenOf(res.body.url))
    const entry = await s.lastLog('people.invite')
    expect(entry.actor).toBe(admin.email)
    expect(entry.summary).toContain(email)
  })

  it('answers 422 for a bad email and for an unknown body field', async () => {
    const count = await inviteCount()
    expectDetail(await invite({ email: 'not-an-email' }, { cookie: owner.cookie }), 422)
    expectDetail(await invite({ email: '' }, { cookie: owner.cookie }), 422)
    expectDetail(await invite({}, { cookie: owner.cookie }), 422)
    expectDetail(await invite({ email: uniqueEmail('x'), nickname: 'Bob' }, { cookie: owner.cookie }), 422)
    expectDetail(await invite({ email: uniqueEmail('x'), units: [{ unit_id: pack, role: 'chief' }] }, { cookie: owner.cookie }), 422)
    expect(await inviteCount()).toBe(count)
  })

  it('answers 403 when the caller grants what it does not hold', async () => {
    const count = await inviteCount()
    expectDetail(await invite({ email: uniqueEmail('x'), global_role: 'owner' }, { cookie: admin.cookie }), 403)
    expectDetail(await invite({ email: uniqueEmail('x'), global_role: 'admin' }, { cookie: packLeader.cookie }), 403)
    expectDetail(await invite({ email: uniqueEmail('x'), units: [{ unit_id: troop, role: 'leader' }] }, { cookie: packLeader.cookie }), 403)
    expectDetail(await invite({ email: uniqueEmail('x'), units: [{ unit_id: troop, role: 'member' }] }, { cookie: packLeader.cookie }), 403)
    expectDetail(await invite({ email: uniqueEmail('x'), units: [{ unit_id: pack, role: 'member' }] }, { cookie: troopLeader.cookie }), 403)
    expect(await inviteCount()).toBe(count)
  })

  it('answers 201 for what the caller holds: pack leader into the pack, admin granting admin, owner granting owner', async () => {
    expect(
      (await invite({ email: uniqueEmail('x'), units: [{ unit_id: pack, role: 'leader' }] }, { cookie: packLeader.cookie })).status,
    ).toBe(201)
    expect(
      (await invite({ email: uniqueEmail('x'), units: [{ unit_id: pack, role: 'member' }] }, { cookie: packLeader.cookie })).status,
    ).toBe(201)
    expect(
      (await invite({ email: uniqueEmail('x'), units: [{ unit_id: troop, role: 'member' }] }, { cookie: troopLeader.cookie })).status,
    ).toBe(201)
    expect((await invite({ email: uniqueEmail('x'), global_role: 'admin' }, { cookie: admin.cookie })).status).toBe(201)
    expect((await invite({ email: uniqueEmail('x'), global_role: 'owner' }, { cookie: owner.cookie })).status).toBe(201)
  })

  it('answers 401 anonymous, 403 member and 403 break-glass', async () => {
    const count = await inviteCount()
    const json = { email: uniqueEmail('x'), units: [{ unit_id: pack, role: 'member' }] }
    expectDetail(await invite(json), 401)
    expectDetail(await invite(json, { cookie: member.cookie }), 403)
    expectDetail(await invite(json, { token: ADMIN_TOKEN }), 403)
    expect(await inviteCount()).toBe(count)
  })

  it('answers 409 for an email that already has an account', async () => {
    const count = await inviteCount()
    expectDetail(await invite({ email: member.email }, { cookie: owner.cookie }), 409)
    expectDetail(await invite({ email: member.email.toUpperCase() }, { cookie: owner.cookie }), 409)
    expect(await inviteCount()).toBe(count)
  })

  it('revokes the earlier invite when the same address is invited again', async () => {
    const email = uniqueEmail('twice')
    const first = await invite({ email, units: [{ unit_id: pack, role: 'member' }] }, { cookie: owner.cookie })
    const second = await invite({ email, units: [{ unit_id: pack, role: 'leader' }] }, { cookie: owner.cookie })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.body.id).not.toBe(first.body.id)
    expect(second.body.url).not.toBe(first.body.url)
    expectDetail(await s.req('POST', `/api/invite/${tokenOf(first.body.url)}`, { json: { password: 'long enough pw' } }), 410)
    const accepted = await s.req('POST', `/api/invite/${tokenOf(second.body.url)}`, { json: { password: 'long enough pw' } })
    expect(accepted.status).toBe(201)
    const me = await whoami(cookieOf(accepted))
    expect(me.body.capabilities).toContain('leads:read')
  })
})

describe('POST /api/invite/:token', () => {
  let owner: { cookie: string }
  let packLeader: { cookie: string }
  beforeAll(async () => {
    owner = await s.as(ROLES.owner)
    packLeader = await s.as(ROLES.packLeader)
  })
  const issue = async (json: unknown, cookie = owner.cookie) => {
    const res = await s.req('POST', '/api/admin/people/invite', { cookie, json })
    expect(res.status).toBe(201)
    return { id: res.body.id as number, token: tokenOf(res.body.url) }
  }
  const accept = (token: string, json: unknown) => s.req('POST', `/api/invite/${token}`, { json })

  it('answers 201 and signs the new person in with the invited roles and units', async () => {
    const email = uniqueEmail('new-leader')
    const { token } = await issue({ email, units: [{ unit_id: pack, role: 'leader', title: 'Den leader' }] }, packLeader.cookie)
    const res = await accept(token, { password: 'long enough pw', name: 'New Leader' })
    expect(res.status).toBe(201)
    expect(typeof res.body.id).toBe('number')
    const cookie = cookieOf(res)
    expect(res.headers.get('set-cookie')!.toLowerCase()).toContain('httponly')
    const me = await whoami(cookie)
    expect(me.status).toBe(200)
    expect(me.body.via).toBe('session')
    expect(me.body.person.email).toBe(email)
    expect(me.body.capabilities).toContain('leads:read')
    expect(me.body.capabilities).toContain('unit:write_own')
    expect(me.body.capabilities).not.toContain('history:read')
    expect(me.body.capabilities).not.toContain('people:invite_admin')
    const units = await s.req('GET', '/api/admin/units', { cookie })
    expect(units.status).toBe(200)
    expect(units.body.units.map((u: any) => u.slug)).toEqual(['pack'])
    const person = await s.db.selectFrom('people').select(['name', 'global_role']).where('email', '=', email).executeTakeFirstOrThrow()
    expect(person).toEqual({ name: 'New Leader', global_role: null })
    expect((await s.req('POST', '/login', { json: { email, password: 'long enough pw' } })).status).toBe(200)
  })

  it('gives a member invite only the member capabilities, and an admin invite admin capabilities', async () => {
    const m = await issue({ email: uniqueEmail('new-member'), units: [{ unit_id: troop, role: 'member' }] })
    const mres = await accept(m.token, { password: 'long enough pw' })
    expect(mres.status).toBe(201)
    expect((await whoami(cookieOf(mres))).body.capabilities.sort()).toEqual(['account:self', 'apikeys:own'])
    const a = await issue({ email: uniqueEmail('new-admin'), global_role: 'admin' })
    const ares = await accept(a.token, { password: 'long enough pw' })
    expect(ares.status).toBe(201)
    const caps = (await whoami(cookieOf(ares))).body.capabilities
    expect(caps).toContain('history:read')
    expect(caps).toContain('settings:write')
    expect(caps).not.toContain('people:manage')
  })

  it('answers 410 when the invite is used again', async () => {
    const email = uniqueEmail('once')
    const { token } = await issue({ email })
    expect((await accept(token, { password: 'long enough pw' })).status).toBe(201)
    const again = await accept(token, { password: 'another long pw' })
    expectDetail(again, 410)
    expect(again.headers.get('set-cookie')).toBeNull()
    expect((await s.req('POST', '/login', { json: { email, password: 'another long pw' } })).status).toBe(401)
  })

  it('answers 410 for an expired invite and creates no account', async () => {
    const email = uniqueEmail('expired')
    const { id, token } = await issue({ email })
    await s.db
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', id)
      .execute()
    expectDetail(await accept(token, { password: 'long enough pw' }), 410)
    expect(await s.db.selectFrom('people').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()
  })

  it('answers 410 for a revoked invite', async () => {
    const { id, token } = await issue({ email: uniqueEmail('revoked') })
    expect((await s.req('DELETE', `/api/admin/people/invite/${id}`, { cookie: owner.cookie })).status).toBe(200)
    expectDetail(await accept(token, { password: 'long enough pw' }), 410)
  })

  it('answers 404 for an unknown token', async () => {
    expectDetail(await accept('no-such-invite-token-0123456789', { password: 'long enough pw' }), 404)
  })

  it('answers 422 for a short password or an unknown field, and the invite still works afterwards', async () => {
    const email = uniqueEmail('short')
    const { token } = await issue({ email })
    expectDetail(await accept(token, { password: 'short' }), 422)
    expectDetail(await accept(token, { password: '1234567' }), 422)
    expectDetail(await accept(token, {}), 422)
    expectDetail(await accept(token, { password: 'long enough pw', role: 'owner' }), 422)
    expect(await s.db.selectFrom('people').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()
    expect((await accept(token, { password: '12345678' })).status).toBe(201)
  })
})

describe('POST /api/admin/people/invite with household_id', () => {
  let packLeader: { email: string; cookie: string }
  let troopLeader: { email: string; cookie: string }
  let admin: { cookie: string }
  let household: number
  beforeAll(async () => {
    packLeader = await s.as(ROLES.packLeader)
    troopLeader = await s.as(ROLES.troopLeader)
    admin = await s.as(ROLES.admin)
    household = await addHousehold(s.db, { unit: 'pack', email: null, parent_name: 'Robin Hale' })
  })
  const invite = (json: Record<string, unknown>, cookie = packLeader.cookie) => s.req('POST', '/api/admin/people/invite', { cookie, json })
  const accept = (url: string) => s.req('POST', `/api/invite/${tokenOf(url)}`, { json: { password: 'long enough pw', name: 'Pat Hale' } })
  const linked = async (id: number) =>
    (
      await s.db
        .selectFrom('household_people')
        .innerJoin('people', 'people.id', 'household_people.person_id')
        .select('people.email')
        .where('household_id', '=', id)
        .execute()
    ).map((r) => r.email)
  const rosterInvites = async (id: number) =>
    (await s.req('GET', '/api/admin/roster', { cookie: packLeader.cookie })).body.households.find((h: any) => h.id === id).invites

  it('issues an invite for a household (201), which the roster shows as open; accepting links the account to it, logged', async () => {
    const email = uniqueEmail('second-parent')
    const res = await invite({ email, units: [{ unit_id: pack, role: 'member' }], household_id: household })
    expect(res.status).toBe(201)
    expect(res.body.household_id).toBe(household)
    expect((await s.lastLog('people.invite')).summary).toBe(`Invited ${email} as member of Cub Scout Pack, to join Robin Hale's household`)
    expect(await rosterInvites(household)).toEqual([
      { id: res.body.id, email, invited_by: packLeader.email, created_at: expect.any(String), expires_at: res.body.expires_at },
    ])

    const accepted = await accept(res.body.url)
    expect(accepted.status).toBe(201)
    expect(accepted.body.start).toBe('/family/')
    expect(await linked(household)).toEqual([email])
    expect((await s.lastLog('roster.household_people')).summary).toBe(
      `Robin Hale's household: linked to ${email}, who accepted an invite from ${packLeader.email}`,
    )
    expect(await rosterInvites(household)).toEqual([])
    const family = await s.req('GET', '/api/admin/family', { cookie: cookieOf(accepted) })
    expect(family.body.households.map((h: any) => h.parent_name)).toEqual(['Robin Hale'])
  })

  it('answers 422 for a household that does not exist, 403 for one the inviter may not keep, 409 for an existing account', async () => {
    const count = await inviteCount()
    const missing = await invite({ email: uniqueEmail('x'), household_id: 999999 })
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toContain('household_id')
    const foreign = await invite({ email: uniqueEmail('x'), household_id: household }, troopLeader.cookie)
    expect(foreign.status).toBe(403)
    expectDetail(await invite({ email: uniqueEmail('x'), household_id: 'five' }), 422)
    const existing = await invite({ email: packLeader.email, household_id: household })
    expect(existing.status).toBe(409)
    expect(existing.body.detail).toContain("link it to Robin Hale's household instead")
    expect(await inviteCount()).toBe(count)
  })

  it('answers 410 at acceptance once the inviter may no longer keep the household, and creates no account', async () => {
    const other = await addHousehold(s.db, { unit: 'pack', email: null, parent_name: 'Sky Moreno' })
    const email = uniqueEmail('moved')
    const res = await invite({ email, household_id: other })
    expect(res.status).toBe(201)
    // The household's only scout moves to the troop: the pack leader keeps it no longer.
    const [scout] = await s.db.selectFrom('scouts').select('id').where('household_id', '=', other).execute()
    expect((await s.req('PATCH', `/api/admin/roster/scouts/${scout.id}`, { cookie: admin.cookie, json: { unit_id: troop } })).status).toBe(
      200,
    )
    expectDetail(await accept(res.body.url), 410)
    expect(await s.db.selectFrom('people').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()
    expect(await linked(other)).toEqual([])
  })

  it('answers 410 for a revoked household invite, and links nothing', async () => {
    const email = uniqueEmail('revoked-household')
    const res = await invite({ email, household_id: household })
    expect(res.status).toBe(201)
    expect((await s.req('DELETE', `/api/admin/people/invite/${res.body.id}`, { cookie: packLeader.cookie })).status).toBe(200)
    expect((await rosterInvites(household)).map((i: any) => i.email)).not.toContain(email)
    expectDetail(await accept(res.body.url), 410)
    expect(await linked(household)).not.toContain(email)
  })
})
