// Active status: per scout, the meetings of their unit held in a period (those whose attendance was taken), how many
// they came to and the share, the other events they came to and the last day they came; and the roster's filter of
// scouts who have not come in the last N weeks, on the roster and its CSV export.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { ago, attend, pastEvent, yearStartsWith } from '../attendance.ts'

let s: TestServer
let leader: { cookie: string }
let troop: { regular: number; rare: number; never: number; gone: number }
let pack: number
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.troopLeader)
  await yearStartsWith(s, (await s.as(ROLES.admin)).cookie, ago(4)) // the old campout is in an earlier program year
  const add = async (parent_name: string, unit: 'pack' | 'troop' = 'troop', active = true) =>
    (await familyAccount(s, { unit, email: null, parent_name, active })).scouts[0]
  troop = {
    regular: await add('Rae Regular'),
    rare: await add('Ray Rare'),
    never: await add('Nev Never'),
    gone: await add('Gus Gone', 'troop', false),
  }
  pack = await add('Pia Pack', 'pack')
  // Three troop meetings: the regular came to all, the rare one to the first. A fourth meeting nobody took attendance
  // at is not held; the pack's meeting is not the troop's.
  const meetings = [ago(30), ago(16), ago(2)]
  for (const [i, date] of meetings.entries()) {
    const uid = await pastEvent(s, leader.cookie, { title: 'Troop meeting', date, kind: 'meeting' })
    await attend(s, leader.cookie, uid, [
      troop.regular,
      { scout_id: troop.rare, present: i === 0 },
      { scout_id: troop.never, present: false },
    ])
  }
  await pastEvent(s, leader.cookie, { title: 'Troop meeting', date: ago(9), kind: 'meeting' })
  const packLeader = await s.as(ROLES.packLeader)
  const packMeeting = await pastEvent(s, packLeader.cookie, { title: 'Pack meeting', unit: 'pack', date: ago(9), kind: 'meeting' })
  await attend(s, packLeader.cookie, packMeeting, [pack])
  // A meeting of both units at which only the pack's leader took attendance: held for the pack, not the troop.
  const joint = await pastEvent(s, packLeader.cookie, { title: 'Joint meeting', unit: 'both', date: ago(5), kind: 'meeting' })
  await attend(s, packLeader.cookie, joint, [pack])
  // A hike: another event, not a meeting. And an old campout, before the period asked below.
  const hike = await pastEvent(s, leader.cookie, { title: 'Hike', date: ago(19), kind: 'hike', miles: 5 })
  await attend(s, leader.cookie, hike, [troop.rare])
  const old = await pastEvent(s, leader.cookie, { title: 'Old campout', date: ago(200), kind: 'campout', nights: 1 })
  await attend(s, leader.cookie, old, [troop.never])
})
afterAll(() => s.stop())

const report = (query: string, cookie = leader.cookie) => s.req('GET', `/api/admin/roster/attendance?${query}`, { cookie })

describe('GET /api/admin/roster/attendance', () => {
  it('counts meetings held and attended, the share, other events and the last day, per scout of an active household', async () => {
    const res = await report(`unit=troop&from=${ago(60)}&to=${ago(0)}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ from: ago(60), to: ago(0) })
    const by = Object.fromEntries(res.body.scouts.map((r: any) => [r.scout_id, r]))
    expect(Object.keys(by).map(Number).sort()).toEqual([troop.regular, troop.rare, troop.never].sort())
    expect(by[troop.regular]).toMatchObject({
      unit: 'troop',
      meetings_held: 3,
      meetings_attended: 3,
      events_attended: 0,
      share: 1,
      last_attended: ago(2),
    })
    expect(by[troop.rare]).toMatchObject({
      meetings_held: 3,
      meetings_attended: 1,
      events_attended: 1,
      share: 0.33,
      last_attended: ago(19),
    })
    expect(by[troop.never]).toMatchObject({ meetings_held: 3, meetings_attended: 0, events_attended: 0, share: 0, last_attended: ago(200) })
    // A narrower period: only the last meeting was held in it.
    const late = await report(`unit=troop&from=${ago(10)}&to=${ago(0)}`)
    const rare = late.body.scouts.find((r: any) => r.scout_id === troop.rare)
    expect(rare).toMatchObject({ meetings_held: 1, meetings_attended: 0, events_attended: 0, share: 0 })
  })

  it("answers every unit the leader leads without unit; an admin's, every unit", async () => {
    const mine = await report('')
    expect(mine.status).toBe(200)
    expect(new Set(mine.body.scouts.map((r: any) => r.unit))).toEqual(new Set(['troop']))
    const admin = await s.as(ROLES.admin)
    const all = await report(`from=${ago(60)}`, admin.cookie)
    expect(all.body.scouts.find((r: any) => r.scout_id === pack)).toMatchObject({
      unit: 'pack',
      meetings_held: 2,
      meetings_attended: 2,
      share: 1,
    })
  })

  it('refuses another unit (403), an unknown one (404), to before from and a bad date (422), a family (403)', async () => {
    const other = await report('unit=pack')
    expect(other.status).toBe(403)
    expect(other.body.code).toBe('unit_out_of_scope')
    expect((await report('unit=ship')).status).toBe(404)
    expect((await report(`from=${ago(1)}&to=${ago(5)}`)).status).toBe(422)
    expect((await report('from=2026-02-30')).status).toBe(422)
    expect((await report('', (await s.as(ROLES.member)).cookie)).status).toBe(403)
  })
})

describe('GET /api/admin/roster?inactive_weeks=N', () => {
  it('keeps the scouts of active households who came to nothing in the last N weeks', async () => {
    const ids = async (query: string) => {
      const res = await s.req('GET', `/api/admin/roster?unit=troop&${query}`, { cookie: leader.cookie })
      expect(res.status).toBe(200)
      return res.body.households.flatMap((h: any) => h.scouts.map((sc: any) => sc.id)).sort()
    }
    // Two weeks: the regular came 2 days ago; the rare one last came 19 days ago.
    expect(await ids('inactive_weeks=2')).toEqual([troop.rare, troop.never].sort())
    // Three weeks: the rare one's hike 19 days ago counts.
    expect(await ids('inactive_weeks=3')).toEqual([troop.never])
    const counted = await s.req('GET', '/api/admin/roster?unit=troop&inactive_weeks=3', { cookie: leader.cookie })
    expect(counted.body.counts).toMatchObject({ households: 1, scouts: 1 })
    const csv = await s.req('GET', '/api/admin/roster/export?unit=troop&inactive_weeks=3', { cookie: leader.cookie })
    expect(csv.status).toBe(200)
    expect(csv.text.trim().split('\r\n')).toHaveLength(2)
    expect(csv.text).toContain(`"Nev Never","","","","","no","no","","0","0","0","${ago(200)}"`)
  })

  it('refuses N below 1 or above 104, or not a whole number (422)', async () => {
    for (const n of ['0', '105', '1.5', 'x'])
      expect((await s.req('GET', `/api/admin/roster?inactive_weeks=${n}`, { cookie: leader.cookie })).status).toBe(422)
  })
})
