// What an event counts for (kind, nights, service hours, miles: kept with the event, checked, read back) and taking
// attendance: who is listed, who may mark whom, when, and a retry that does the work once.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eventCounts } from '../../server/attendance/occurrence.ts'
import { startServer, ROLES, type TestServer } from '../helpers.ts'
import { addDays, today } from '../dates.ts'

let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as({
    units: [
      { slug: 'pack', role: 'leader' },
      { slug: 'troop', role: 'leader' },
    ],
  })
})
afterAll(() => s.stop())

const soon = (days: number) => addDays(today(), days)
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`
const create = (json: Record<string, unknown>, cookie = leader.cookie) =>
  s.req('POST', '/api/admin/calendar', { cookie, json: { title: 'Campout', date: soon(10), unit: 'troop', ...json } })

describe('what an event counts for', () => {
  it('keeps kind, nights, service hours and miles with the event, answers them, and changes them on PUT', async () => {
    const res = await create({ kind: 'campout', nights: 2, service_hours: 1.5, miles: 3.25, end: soon(12) })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ kind: 'campout', nights: 2, service_hours: 1.5, miles: 3.25 })
    const uid = res.body.uid
    const ics = (await s.db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirstOrThrow()).ics
    expect(ics).toContain('X-SITE-KIND:campout')
    expect(ics).toContain('X-SITE-NIGHTS:2')
    expect(await eventCounts(s.db, uid)).toEqual({ kind: 'campout', nights: 2, service_hours: 1.5, miles: 3.25 })
    const list = await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    expect(list.body.events.find((e: any) => e.uid === uid)).toMatchObject({ kind: 'campout', nights: 2 })

    const put = await s.req('PUT', eventPath(uid), {
      cookie: leader.cookie,
      json: { title: 'Service day', date: soon(10), unit: 'troop', kind: 'service', service_hours: 4 },
    })
    expect(put.status).toBe(200)
    expect(put.body.kind).toBe('service')
    expect(put.body.nights).toBeUndefined()
    expect(await eventCounts(s.db, uid)).toEqual({ kind: 'service', nights: 0, service_hours: 4, miles: 0 })
  })

  it('an event without them counts for nothing, and an unknown uid for null', async () => {
    const res = await create({ title: 'Plain' })
    expect(res.body.kind).toBeUndefined()
    expect(await eventCounts(s.db, res.body.uid)).toEqual({ kind: null, nights: 0, service_hours: 0, miles: 0 })
    expect(await eventCounts(s.db, 'no-such-uid')).toBeNull()
  })

  it('refuses a kind it does not know, fractional or negative nights, and negative hours or miles (422 naming the field)', async () => {
    for (const [field, value] of [
      ['kind', 'party'],
      ['nights', 1.5],
      ['nights', -1],
      ['service_hours', -0.5],
      ['miles', -2],
      ['miles', 'far'],
    ] as const) {
      const res = await create({ [field]: value })
      expect(res.status).toBe(422)
      expect(res.body.detail).toContain(field)
    }
  })
})
