// whoami answers which units the caller leads (led_units), the one answer the admin pages read instead of working
// it out from the memberships: a unit leader their leader memberships, a member none, admins, owners and the
// break-glass token every unit; a leader's key speaks for its owner.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => {
  s = await startServer()
})
afterAll(() => s.stop())

const ledUnits = async (who: { cookie?: string; token?: string; key?: string }) => {
  const res = await s.req('GET', '/api/admin/whoami', who)
  expect(res.status, res.text).toBe(200)
  return res.body.led_units
}

describe('GET /api/admin/whoami led_units', () => {
  it('a leader of both units with a member role elsewhere: the leader memberships, with their titles', async () => {
    const leader = await s.as({
      units: [
        { slug: 'pack', role: 'leader', title: 'Cubmaster' },
        { slug: 'troop', role: 'leader' },
      ],
    })
    expect(await ledUnits({ cookie: leader.cookie })).toEqual({
      every_unit: false,
      units: [
        { unit_id: 1, slug: 'pack', title: 'Cubmaster' },
        { unit_id: 2, slug: 'troop', title: null },
      ],
    })
  })

  it('a member leads no unit', async () => {
    const member = await s.as({ units: [{ slug: 'troop', role: 'member' }] })
    expect(await ledUnits({ cookie: member.cookie })).toEqual({ every_unit: false, units: [] })
  })

  it('admins, owners and the break-glass token act for every unit', async () => {
    for (const global_role of ['admin', 'owner'] as const)
      expect((await ledUnits({ cookie: (await s.as({ global_role })).cookie })).every_unit).toBe(true)
    expect(await ledUnits({ token: ADMIN_TOKEN })).toEqual({ every_unit: true, units: [] })
  })

  it("a key answers for its owner's units", async () => {
    const leader = await s.as({ units: [{ slug: 'troop', role: 'leader', title: 'Scoutmaster' }] })
    const { key } = await s.mintKey(leader.cookie, ['calendar:write'])
    expect(await ledUnits({ key })).toEqual({ every_unit: false, units: [{ unit_id: 2, slug: 'troop', title: 'Scoutmaster' }] })
  })
})
