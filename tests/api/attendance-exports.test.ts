// Attendance goes wherever the unit's records go: the action log says who took it, a backup holds it, the roster's
// CSV export carries each scout's nights, hours and miles this program year and the last day they came, and the
// family's own view of what the site holds (GET /api/admin/family) carries their scouts' logs.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { readAll } from '../../server/backups/copy.ts'
import { runBackup } from '../../server/backups/run.ts'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { ago, attend, pastEvent, yearStartsWith } from '../attendance.ts'

let s: TestServer
let leader: { cookie: string; email: string }
let fam: Awaited<ReturnType<typeof familyAccount>>
let campout: string
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.troopLeader)
  await yearStartsWith(s, (await s.as(ROLES.admin)).cookie, ago(4))
  fam = await familyAccount(s, {
    unit: 'troop',
    email: null,
    parent_name: 'Eve Export',
    scouts: [{ first_name: 'Ezra', last_name: 'Export' }],
  })
  campout = await pastEvent(s, leader.cookie, { title: 'Ridge campout', date: ago(3), end: ago(2), kind: 'campout', nights: 2, miles: 6 })
  await attend(s, leader.cookie, campout, fam.scouts, [{ name: 'Eve Export', present: true }])
  const service = await pastEvent(s, leader.cookie, { title: 'Trail work', date: ago(2), kind: 'service', service_hours: 3 })
  await attend(s, leader.cookie, service, fam.scouts)
})
afterAll(() => s.stop())

describe('attendance in the records', () => {
  it('is in the action log: who took it, for which event', async () => {
    const entry = await s.lastLog('calendar.attendance')
    expect(entry.actor).toBe(leader.email)
    expect(entry.summary).toContain('Trail work')
  })

  it('is in a backup: the copy holds the scouts’ and adults’ attendance', async () => {
    const place = { databasePath: path.join(s.dir, 'site.db'), dir: path.join(s.dir, 'backups') }
    const outcome = await runBackup(s.db, place, 'daily')
    if (!outcome.ok) throw new Error(outcome.error)
    const copy = new Database(path.join(place.dir, outcome.name), { readonly: true })
    try {
      const scouts = readAll<any>(
        copy,
        `select event_uid, scout_id, present, unit from attendance where scout_id = ${fam.scouts[0]} order by event_uid`,
      )
      expect(scouts).toHaveLength(2)
      expect(scouts.find((r) => r.event_uid === campout)).toEqual({
        event_uid: campout,
        scout_id: fam.scouts[0],
        present: 1,
        unit: 'troop',
      })
      expect(readAll<any>(copy, `select name, present from attendance_adults where event_uid = '${campout}'`)).toEqual([
        { name: 'Eve Export', present: 1 },
      ])
    } finally {
      copy.close(true)
    }
  })

  it("is in the roster's CSV export: this program year's nights, hours and miles and the last day, per scout", async () => {
    const res = await s.req('GET', '/api/admin/roster/export?unit=troop', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    const [header, ...lines] = res.text.trim().split('\r\n')
    const columns = header.split(',')
    const year = columns.find((c: string) => c.startsWith('nights_'))!.slice('nights_'.length)
    expect(columns.slice(-4)).toEqual([`nights_${year}`, `service_hours_${year}`, `miles_${year}`, 'last_attended'])
    const ezra = lines.find((l: string) => l.startsWith('"Ezra","Export"'))!
    expect(ezra.endsWith(`"2","3","6","${ago(2)}"`)).toBe(true)
  })

  it("is in the family's own view of what the site holds, and nowhere a family sees another's", async () => {
    const view = (await s.req('GET', '/api/admin/family', { cookie: fam.cookie })).body
    expect(view.logs).toHaveLength(1)
    expect(view.logs[0].totals.program_year).toEqual({ nights: 2, service_hours: 3, miles: 6, meetings: 0 })
    const stranger = await familyAccount(s, { unit: 'troop', email: null, parent_name: 'Sol Stranger' })
    const theirs = (await s.req('GET', '/api/admin/family', { cookie: stranger.cookie })).body
    expect(theirs.logs.map((l: any) => l.scout_id)).toEqual(stranger.scouts)
    expect(theirs.logs[0].entries).toEqual([])
  })
})
