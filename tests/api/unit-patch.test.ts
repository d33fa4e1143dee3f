// PATCH /api/admin/units/:slug_or_id: every row of the own-units table, and the rebuild it asks for.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => (s = await startServer()))
afterAll(() => s.stop())

const patch = (slug: string, json: unknown, creds: { cookie?: string; key?: string; token?: string }) =>
  s.req('PATCH', `/api/admin/units/${slug}`, { ...creds, json })

describe('PATCH /api/admin/units/:slug_or_id', () => {
  it('changes only the fields sent, logs units.update with the actor and asks for a rebuild', async () => {
    const leader = await s.as(ROLES.packLeader)
    const before = s.rebuilds.count
    const res = await patch('pack', { meeting_time: '18:45', meeting_day: 'thursday' }, leader)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ slug: 'pack', meeting_time: '18:45', meeting_day: 'thursday' })
    const again = await patch('pack', { meeting_place: 'School gym' }, leader)
    expect(again.body).toMatchObject({ meeting_time: '18:45', meeting_place: 'School gym' })
    expect((await s.req('GET', '/api/admin/units/pack', leader)).body).toEqual(again.body)
    expect(s.rebuilds.count).toBe(before + 2)
    const log = await s.lastLog('units.update')
    expect(log.actor).toBe(leader.email)
    expect(log.summary).toContain('School gym')
  })

  it('addresses a unit by numeric id as well as by slug', async () => {
    const admin = await s.as(ROLES.admin)
    const troop = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    const res = await patch(String(troop.id), { number: '77' }, admin)
    expect(res.status).toBe(200)
    expect(res.body.slug).toBe('troop')
  })

  it('answers 200 when nothing changes, without logging or rebuilding', async () => {
    const admin = await s.as(ROLES.admin)
    await patch('troop', { meeting_day: 'monday' }, admin)
    const logs = (await s.db.selectFrom('action_log').select('id').execute()).length
    const rebuilds = s.rebuilds.count
    const res = await patch('troop', { meeting_day: 'monday' }, admin)
    expect(res.status).toBe(200)
    expect((await s.db.selectFrom('action_log').select('id').execute()).length).toBe(logs)
    expect(s.rebuilds.count).toBe(rebuilds)
    expect((await patch('troop', {}, admin)).status).toBe(200)
  })

  it('answers 403 for a unit outside the caller scope', async () => {
    const leader = await s.as(ROLES.packLeader)
    const res = await patch('troop', { meeting_time: '19:00' }, leader)
    expect(res.status).toBe(403)
    expect(typeof res.body.detail).toBe('string')
  })

  it("lets a unit's own leader change its name and number (logged), and refuses the other unit's (403) and an empty name (422)", async () => {
    const leader = await s.as(ROLES.packLeader)
    const res = await patch('pack', { name: 'Cub Scout Pack', number: '314' }, leader)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Cub Scout Pack', number: '314' })
    expect((await s.lastLog('units.update')).summary).toContain('number none → 314')
    expect((await patch('troop', { name: 'Troop 9', number: '9' }, leader)).status).toBe(403)
    expect((await patch('pack', { name: '' }, leader)).status).toBe(422)
  })

  it('answers 422 for a bad time, a bad weekday and an unknown field, and changes nothing', async () => {
    const admin = await s.as(ROLES.admin)
    const before = await s.db.selectFrom('units').selectAll().where('slug', '=', 'pack').executeTakeFirstOrThrow()
    for (const body of [
      { meeting_time: '25:00' },
      { meeting_time: '6pm' },
      { meeting_time: '7:5' },
      { meeting_day: 'funday' },
      { colour: 'red' },
    ]) {
      const res = await patch('pack', body, admin)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(typeof res.body.detail).toBe('string')
    }
    expect(await s.db.selectFrom('units').selectAll().where('slug', '=', 'pack').executeTakeFirstOrThrow()).toEqual(before)
  })

  it('answers 404 for an unknown unit', async () => {
    const admin = await s.as(ROLES.admin)
    expect((await patch('crew', { meeting_time: '19:00' }, admin)).status).toBe(404)
    expect((await patch('999', { meeting_time: '19:00' }, admin)).status).toBe(404)
  })

  it('checks credentials: anonymous 401, member 403, break-glass and a scoped key 200', async () => {
    expect((await patch('pack', { meeting_time: '19:00' }, {})).status).toBe(401)
    const member = await s.as(ROLES.member)
    expect((await patch('pack', { meeting_time: '19:00' }, member)).status).toBe(403)
    expect((await patch('pack', { meeting_time: '19:05' }, { token: ADMIN_TOKEN })).status).toBe(200)
    const leader = await s.as(ROLES.troopLeader)
    const { key } = await s.mintKey(leader.cookie, ['unit:write_own'])
    expect((await patch('troop', { meeting_time: '19:10' }, { key })).status).toBe(200)
    expect((await patch('pack', { meeting_time: '19:10' }, { key })).status).toBe(403)
    const actor = (await s.lastLog('units.update')).actor
    expect(actor).toContain('key:')
  })
})
