// Own units list: each caller sees only the units they may edit (leaders theirs, global roles and break-glass both).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

const list = (o: Parameters<TestServer['req']>[2]) => s.req('GET', '/api/admin/units', o)
const slugs = (res: { body: any }) => res.body.units.map((u: any) => u.slug)

describe('GET /api/admin/units', () => {
  it('answers the pack only to a pack leader', async () => {
    const res = await list({ cookie: (await s.as(ROLES.packLeader)).cookie })
    expect(res.status).toBe(200)
    expect(slugs(res)).toEqual(['pack'])
  })

  it('answers the troop only to a troop leader', async () => {
    const res = await list({ cookie: (await s.as(ROLES.troopLeader)).cookie })
    expect(res.status).toBe(200)
    expect(slugs(res)).toEqual(['troop'])
  })

  it('answers only the led unit to a leader of one unit who is a member of the other', async () => {
    const p = await s.as({
      units: [
        { slug: 'pack', role: 'member' },
        { slug: 'troop', role: 'leader' },
      ],
    })
    const res = await list({ cookie: p.cookie })
    expect(res.status).toBe(200)
    expect(slugs(res)).toEqual(['troop'])
  })

  it('answers both units to an admin, an owner and the break-glass token', async () => {
    for (const o of [{ cookie: (await s.as(ROLES.admin)).cookie }, { cookie: (await s.as(ROLES.owner)).cookie }, { token: ADMIN_TOKEN }]) {
      const res = await list(o)
      expect(res.status).toBe(200)
      expect(slugs(res).sort()).toEqual(['pack', 'troop'])
    }
  })

  it('answers each unit with its own-unit fields', async () => {
    const res = await list({ token: ADMIN_TOKEN })
    const pack = res.body.units.find((u: any) => u.slug === 'pack')
    expect(typeof pack.id).toBe('number')
    for (const f of ['slug', 'name', 'unit_type', 'number', 'meeting_day', 'meeting_time', 'meeting_place']) expect(pack).toHaveProperty(f)
    expect(pack.unit_type).toBe('pack')
    expect(res.body.units.find((u: any) => u.slug === 'troop').unit_type).toBe('troop')
  })

  it("answers a key with unit:write_own its owner's units, and 403 to a key without it", async () => {
    const leader = await s.as(ROLES.packLeader)
    const scoped = await s.mintKey(leader.cookie, ['unit:write_own'])
    const res = await list({ key: scoped.key })
    expect(res.status).toBe(200)
    expect(slugs(res)).toEqual(['pack'])
    const unscoped = await s.mintKey(leader.cookie, ['leads:read'])
    expectDetail(await list({ key: unscoped.key }), 403)
  })

  it('answers 403 to a member and 401 to an anonymous caller', async () => {
    expectDetail(await list({ cookie: (await s.as(ROLES.member)).cookie }), 403)
    expectDetail(await list({}), 401)
  })
})

describe('GET /api/admin/units/:slug_or_id', () => {
  const one = (slugOrId: string, o: Parameters<TestServer['req']>[2]) => s.req('GET', `/api/admin/units/${slugOrId}`, o)

  it('answers a unit the caller may edit as the list shows it, by slug or id', async () => {
    const leader = await s.as(ROLES.packLeader)
    const listed = (await list({ cookie: leader.cookie })).body.units[0]
    const res = await one('pack', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(listed)
    expect((await one(String(listed.id), { cookie: leader.cookie })).body).toEqual(listed)
    expect((await one('troop', { token: ADMIN_TOKEN })).body.slug).toBe('troop')
  })

  it('answers 403 for the other unit (as its PATCH does), 404 for an unknown one, 403 to a member', async () => {
    const leader = await s.as(ROLES.packLeader)
    expectDetail(await one('troop', { cookie: leader.cookie }), 403)
    expectDetail(await one('crew', { cookie: leader.cookie }), 404)
    expectDetail(await one('999', { cookie: leader.cookie }), 404)
    expectDetail(await one('pack', { cookie: (await s.as(ROLES.member)).cookie }), 403)
  })
})
