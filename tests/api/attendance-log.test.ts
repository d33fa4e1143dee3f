// Each scout's log: the events they came to with what each counted for, and the totals for this program year and all
// time; who may read it (the scout's own household, leaders of the scout's unit); a scout who moved from the pack to
// the troop keeping the pack's nights; a scout who came without signing up counting; and the family page's copy.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { ago, attend, pastEvent, yearStartsWith } from '../attendance.ts'

let s: TestServer
let leader: { cookie: string }
let admin: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  admin = await s.as(ROLES.admin)
  leader = await s.as({
    units: [
      { slug: 'pack', role: 'leader' },
      { slug: 'troop', role: 'leader' },
    ],
  })
  await yearStartsWith(s, admin.cookie, ago(4))
})
afterAll(() => s.stop())

const logOf = (scout: number, cookie?: string) => s.req('GET', `/api/admin/roster/scouts/${scout}/log`, cookie ? { cookie } : {})

describe('GET /api/admin/roster/scouts/{id}/log', () => {
  it("lists the events a scout came to, newest first, and adds up this program year's and all time's", async () => {
    const fam = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Lane Log' })
    const [scout] = fam.scouts
    const campout = await pastEvent(s, leader.cookie, { date: ago(3), end: ago(2), kind: 'campout', nights: 2, miles: 3.5 })
    const service = await pastEvent(s, leader.cookie, { title: 'Food drive', date: ago(3), kind: 'service', service_hours: 1.5 })
    const meeting = await pastEvent(s, leader.cookie, { title: 'Troop meeting', date: ago(2), kind: 'meeting' })
    const missed = await pastEvent(s, leader.cookie, { title: 'Missed hike', date: ago(2), kind: 'hike', miles: 8 })
    const old = await pastEvent(s, leader.cookie, {
      title: 'Last year’s campout',
      date: ago(400),
      end: ago(397),
      kind: 'campout',
      nights: 3,
    })
    for (const uid of [campout, service, meeting, old]) await attend(s, leader.cookie, uid, [scout])
    await attend(s, leader.cookie, missed, [{ scout_id: scout, present: false }])

    const res = await logOf(scout, leader.cookie)
    expect(res.status).toBe(200)
    expect(res.body.scout_id).toBe(scout)
    expect(res.body.entries.map((e: any) => [e.title, e.date])).toEqual([
      ['Troop meeting', ago(2)],
      ['Campout', ago(3)],
      ['Food drive', ago(3)],
      ['Last year’s campout', ago(400)],
    ])
    expect(res.body.entries[1]).toEqual({
      uid: campout,
      title: 'Campout',
      date: ago(3),
      end: ago(2),
      unit: 'troop',
      kind: 'campout',
      nights: 2,
      service_hours: 0,
      miles: 3.5,
    })
    expect(res.body.totals).toEqual({
      program_year: { nights: 2, service_hours: 1.5, miles: 3.5, meetings: 1 },
      all_time: { nights: 5, service_hours: 1.5, miles: 3.5, meetings: 1 },
    })
  })

  it('is for the scout’s own household and leaders of its unit: 404 for another family, 403 for another unit’s leader', async () => {
    const fam = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Owen Own' })
    const other = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Olga Other' })
    const packLeader = await s.as(ROLES.packLeader)
    const troopLeader = await s.as(ROLES.troopLeader)
    const [scout] = fam.scouts
    expect((await logOf(scout, fam.cookie)).status).toBe(200)
    expect((await logOf(scout, troopLeader.cookie)).status).toBe(200)
    expect((await logOf(scout, admin.cookie)).status).toBe(200)
    expect((await logOf(scout, other.cookie)).status).toBe(404)
    const outside = await logOf(scout, packLeader.cookie)
    expect(outside.status).toBe(403)
    expect(outside.body.code).toBe('unit_out_of_scope')
    expect((await logOf(999_999, troopLeader.cookie)).status).toBe(404)
    expect((await logOf(scout)).status).toBe(401)
    // A scout without a tick has an empty log and zero totals.
    const empty = (await logOf(other.scouts[0], other.cookie)).body
    expect(empty.entries).toEqual([])
    expect(empty.totals.all_time).toEqual({ nights: 0, service_hours: 0, miles: 0, meetings: 0 })
  })

  it('keeps the pack’s entries of a scout who moved to the troop, each with the unit of the day', async () => {
    const fam = await familyAccount(s, { unit: 'pack', email: null, parent_name: 'Milo Mover' })
    const [scout] = fam.scouts
    const packCampout = await pastEvent(s, leader.cookie, {
      title: 'Pack family campout',
      unit: 'pack',
      date: ago(3),
      kind: 'campout',
      nights: 1,
    })
    await attend(s, leader.cookie, packCampout, [scout])
    const moved = await s.req('PATCH', `/api/admin/roster/scouts/${scout}`, { cookie: leader.cookie, json: { unit_id: 2 } })
    expect(moved.status).toBe(200)
    const troopCampout = await pastEvent(s, leader.cookie, { title: 'Troop campout', date: ago(2), kind: 'campout', nights: 2 })
    await attend(s, leader.cookie, troopCampout, [scout])

    const troopLeader = await s.as(ROLES.troopLeader)
    const log = (await logOf(scout, troopLeader.cookie)).body
    expect(log.entries.map((e: any) => [e.title, e.unit, e.nights])).toEqual([
      ['Troop campout', 'troop', 2],
      ['Pack family campout', 'pack', 1],
    ])
    expect(log.totals.all_time.nights).toBe(3)
    // The pack's leaders no longer lead this scout.
    expect((await logOf(scout, (await s.as(ROLES.packLeader)).cookie)).status).toBe(403)
  })

  it('counts a scout who came without signing up', async () => {
    const walkIn = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Wim Walkin' })
    // The campout asked families to reply; this household never did.
    const uid = await pastEvent(s, leader.cookie, {
      title: 'Snow campout',
      date: ago(3),
      end: ago(2),
      kind: 'campout',
      nights: 1,
      rsvp: true,
    })
    const listed = (await s.req('GET', `/api/admin/calendar/${encodeURIComponent(uid)}/attendance`, { cookie: leader.cookie })).body
    expect(listed.scouts.some((sc: any) => sc.scout_id === walkIn.scouts[0])).toBe(false)
    expect(listed.others.some((sc: any) => sc.scout_id === walkIn.scouts[0])).toBe(true)
    const marked = await attend(s, leader.cookie, uid, walkIn.scouts)
    expect(marked.body.scouts.find((sc: any) => sc.scout_id === walkIn.scouts[0])).toMatchObject({ signed_up: false, present: true })
    const log = (await logOf(walkIn.scouts[0], walkIn.cookie)).body
    expect(log.entries.map((e: any) => e.title)).toEqual(['Snow campout'])
    expect(log.totals.program_year.nights).toBe(1)
  })
})

describe('the family page', () => {
  it("holds each of the family's scouts' log and totals, and no other household's", async () => {
    const fam = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Fay Family', scouts: 2 })
    const stranger = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Stan Stranger' })
    const uid = await pastEvent(s, leader.cookie, { title: 'Family campout', date: ago(3), end: ago(2), kind: 'campout', nights: 2 })
    await attend(s, leader.cookie, uid, [fam.scouts[0], stranger.scouts[0]])
    const res = await s.req('GET', '/api/admin/family', { cookie: fam.cookie })
    expect(res.status).toBe(200)
    expect(res.body.logs.map((l: any) => l.scout_id).sort()).toEqual([...fam.scouts].sort())
    const first = res.body.logs.find((l: any) => l.scout_id === fam.scouts[0])
    expect(first.entries.map((e: any) => e.title)).toEqual(['Family campout'])
    expect(first.totals.program_year.nights).toBe(2)
    expect(res.body.logs.find((l: any) => l.scout_id === fam.scouts[1]).entries).toEqual([])
  })
})
