// An event's attendance as CSV for Scoutbook: its log columns, one line per attendee for each log the event counts
// for, a byte-order mark and defused formulas for Excel, one meeting of a repeating event by its day, and who may
// download it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { ago, attend, eventPath, pastEvent } from '../attendance.ts'

let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.troopLeader)
})
afterAll(() => s.stop())

const HEADER =
  '"BSA Member ID","First Name","Middle Name","Last Name","Log Type","Date","Nights","Days","Miles","Hours","Frost Points","Location/Name","Notes"'
const usDate = (d: string) => `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}`
const csvOf = (uid: string, cookie = leader.cookie) => s.req('GET', `${eventPath(uid)}/attendance.csv`, { cookie })

async function scouts(...names: [string, string, string | null][]) {
  const household = await addHousehold(s.db, {
    unit: 'troop',
    email: null,
    scouts: names.map(([first_name, last_name]) => ({ first_name, last_name })),
  })
  const rows = await s.db.selectFrom('scouts').select('id').where('household_id', '=', household).orderBy('id').execute()
  for (const [i, [, , member]] of names.entries())
    await s.db.updateTable('scouts').set({ org_member_id: member }).where('id', '=', rows[i].id).execute()
  return rows.map((r) => r.id)
}

describe('GET /api/admin/calendar/{uid}/attendance.csv', () => {
  it("writes Scoutbook's log columns, a line per attendee for each log, with a byte-order mark and no formulas", async () => {
    const [ana, mal, absent] = await scouts(['Ana', 'Birch', '12345678'], ['=HYPERLINK("http://x")', 'Cole', null], ['Abe', 'Sent', null])
    const uid = await pastEvent(s, leader.cookie, {
      title: 'Winter campout',
      date: ago(3),
      end: ago(1),
      location: 'Camp Lake',
      kind: 'campout',
      nights: 2,
      miles: 4.5,
    })
    await attend(
      s,
      leader.cookie,
      uid,
      [ana, mal, { scout_id: absent, present: false }],
      [
        { name: 'Dana Q Birch', present: true },
        { name: 'Not Coming', present: false },
      ],
    )
    const res = await csvOf(uid)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('content-disposition')).toContain(`attendance-${ago(3)}-winter-campout.csv`)
    const raw = await fetch(`${s.url}${eventPath(uid)}/attendance.csv`, { headers: { cookie: leader.cookie } })
    const bytes = new Uint8Array(await raw.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]) // the byte-order mark: Excel reads the file as UTF-8
    const lines = res.text.trim().split('\r\n')
    expect(lines[0]).toBe(HEADER)
    const date = usDate(ago(3))
    expect(lines.slice(1)).toEqual([
      `"12345678","Ana","","Birch","Camping","${date}","2","3","","","","Winter campout, Camp Lake",""`,
      `"12345678","Ana","","Birch","Hiking","${date}","","","4.5","","","Winter campout, Camp Lake",""`,
      `"","'=HYPERLINK(""http://x"")","","Cole","Camping","${date}","2","3","","","","Winter campout, Camp Lake",""`,
      `"","'=HYPERLINK(""http://x"")","","Cole","Hiking","${date}","","","4.5","","","Winter campout, Camp Lake",""`,
      `"","Dana Q","","Birch","Camping","${date}","2","3","","","","Winter campout, Camp Lake",""`,
      `"","Dana Q","","Birch","Hiking","${date}","","","4.5","","","Winter campout, Camp Lake",""`,
    ])
  })

  it('puts service hours in Hours, and lists who came to a meeting that counts for nothing', async () => {
    const [kim] = await scouts(['Kim', 'Dale', null])
    const service = await pastEvent(s, leader.cookie, { title: 'Park cleanup', date: ago(2), kind: 'service', service_hours: 2.5 })
    const meeting = await pastEvent(s, leader.cookie, { title: 'Troop meeting', date: ago(2), kind: 'meeting' })
    await attend(s, leader.cookie, service, [kim])
    await attend(s, leader.cookie, meeting, [kim])
    const hours = (await csvOf(service)).text.trim().split('\r\n')
    expect(hours[1]).toBe(`"","Kim","","Dale","Service","${usDate(ago(2))}","","","","2.5","","Park cleanup",""`)
    const met = (await csvOf(meeting)).text.trim().split('\r\n')
    expect(met[1]).toBe(`"","Kim","","Dale","","${usDate(ago(2))}","","","","","","Troop meeting",""`)
  })

  it('takes one meeting of a repeating event as <uid>#<date>: 422 without the day, 404 for a day it does not happen', async () => {
    const [lee] = await scouts(['Lee', 'Moss', null])
    const uid = await pastEvent(s, leader.cookie, {
      title: 'Weekly meeting',
      date: ago(14),
      time: '19:00',
      repeat: 'weekly',
      repeat_until: ago(7),
      kind: 'meeting',
    })
    await attend(s, leader.cookie, `${uid}#${ago(7)}`, [lee])
    const res = await csvOf(`${uid}#${ago(7)}`)
    expect(res.status).toBe(200)
    expect(res.text.trim().split('\r\n')[1]).toContain(`"Lee","","Moss","","${usDate(ago(7))}"`)
    expect((await csvOf(uid)).status).toBe(422)
    expect((await csvOf(`${uid}#${ago(8)}`)).status).toBe(404)
  })

  it('is for leaders of the event’s unit: 403 for another unit’s, 404 for an event the calendar does not hold, 401 signed out', async () => {
    const uid = await pastEvent(s, leader.cookie, { title: 'Troop hike', date: ago(2), kind: 'hike', miles: 5 })
    const packLeader = await s.as(ROLES.packLeader)
    const member = await s.as(ROLES.member)
    const outside = await csvOf(uid, packLeader.cookie)
    expect(outside.status).toBe(403)
    expect(outside.body.code).toBe('unit_out_of_scope')
    expect((await csvOf(uid, member.cookie)).status).toBe(403)
    expect((await csvOf('no-such-event')).status).toBe(404)
    expect((await s.req('GET', `${eventPath(uid)}/attendance.csv`)).status).toBe(401)
  })
})
