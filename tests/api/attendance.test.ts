// What an event counts for (kind, nights, service hours, miles: kept with the event, checked, read back) and taking
// attendance: who is listed, who may mark whom, when, and a retry that does the work once.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eventCounts } from '../../server/attendance/occurrence.ts'
import { startServer, ROLES, type TestServer } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
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

const attendancePath = (uid: string, date?: string) => `${eventPath(date ? `${uid}#${date}` : uid)}/attendance`
const take = (uid: string, json: unknown, cookie = leader.cookie, headers: Record<string, string> = {}, date?: string) =>
  s.req('PUT', attendancePath(uid, date), { cookie, json, headers })
const read = (uid: string, cookie = leader.cookie, date?: string) => s.req('GET', attendancePath(uid, date), { cookie })
const names = (list: { name: string }[]) => list.map((x) => x.name)
const logCount = async () => (await s.db.selectFrom('action_log').select('id').where('kind', '=', 'calendar.attendance').execute()).length

/** A troop campout with sign-ups: Ash's first scout and Blake's scout signed up, Casey did not reply, Dee's household is inactive. */
async function campout() {
  const res = await create({ title: 'Winter campout', rsvp: true, signup: { per_scout: true }, kind: 'campout', nights: 1 })
  expect(res.status).toBe(201)
  const uid = res.body.uid as string
  const ash = await familyAccount(s, { unit: 'troop', email: null, scouts: 2, parent_name: 'Ash Avery', second_parent: 'Robin Avery' })
  const blake = await familyAccount(s, {
    unit: 'troop',
    email: null,
    scouts: [{ first_name: 'Bo', last_name: 'Brook' }],
    parent_name: 'Blake Brook',
  })
  const casey = await familyAccount(s, {
    unit: 'troop',
    email: null,
    scouts: [{ first_name: 'Cy', last_name: 'Cole' }],
    parent_name: 'Casey Cole',
  })
  await addHousehold(s.db, { unit: 'troop', email: null, active: false, scouts: [{ first_name: 'Dee', last_name: 'Dormant' }] })
  const reply = (f: { cookie: string }, json: Record<string, unknown>) =>
    s.req('PUT', `${eventPath(uid)}/rsvps`, { cookie: f.cookie, json: { answer: 'yes', ...json } })
  expect((await reply(ash, { adults: 2, scouts: 1, scout_ids: [ash.scouts[0]] })).status).toBe(200)
  expect((await reply(blake, { adults: 0, scouts: 1, scout_ids: blake.scouts })).status).toBe(200)
  return { uid, ash, blake, casey }
}

/** Moves an event to yesterday (through today), so it has started. */
async function started(uid: string, json: Record<string, unknown> = {}) {
  const event = (await s.req('GET', eventPath(uid), { cookie: leader.cookie })).body
  const { uid: _, mine, replies, recurring, first_date, ...body } = event
  const res = await s.req('PUT', eventPath(uid), { cookie: leader.cookie, json: { ...body, date: soon(-1), end: soon(0), ...json } })
  expect(res.status).toBe(200)
}

describe('GET/PUT /api/admin/calendar/{uid}/attendance', () => {
  it('lists confirmed sign-ups, refuses marks before the start (422 event_not_started), then marks who came, signed up or not', async () => {
    const { uid, ash, blake, casey } = await campout()
    const before = await read(uid)
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({ title: 'Winter campout', kind: 'campout', nights: 1, started: false, signup: true })
    expect(before.body.scouts).toEqual([
      { scout_id: blake.scouts[0], name: 'Bo Brook', unit: 'troop', den: null, signed_up: true, present: false },
      { scout_id: ash.scouts[0], name: 'Sam', unit: 'troop', den: null, signed_up: true, present: false },
    ])
    // The other active scouts of the troop, to add one who came; not the inactive household's, not the pack's.
    const others = names(before.body.others)
    expect(others).toContain('Cy Cole')
    expect(others).toContain('Kid1')
    expect(others).not.toContain('Dee Dormant')
    expect(before.body.adults).toEqual([
      { name: 'Ash Avery', signed_up: true, present: false },
      { name: 'Robin Avery', signed_up: true, present: false },
    ])
    expect(before.body.recorded_at).toBeNull()

    const early = await take(uid, { scouts: [{ scout_id: ash.scouts[0], present: true }] })
    expect(early.status).toBe(422)
    expect(early.body.code).toBe('event_not_started')
    expect(await logCount()).toBe(0)

    await started(uid)
    const logs = await logCount()
    const res = await take(uid, {
      scouts: [
        { scout_id: ash.scouts[0], present: true },
        { scout_id: casey.scouts[0], present: true },
      ],
      adults: [
        { name: 'Ash Avery', present: true },
        { name: '  Jordan   Lee ', present: true },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.started).toBe(true)
    const by = Object.fromEntries(res.body.scouts.map((x: any) => [x.name, [x.signed_up, x.present]]))
    expect(by).toEqual({ 'Bo Brook': [true, false], 'Cy Cole': [false, true], Sam: [true, true] })
    expect(names(res.body.others)).not.toContain('Cy Cole')
    expect(res.body.adults).toEqual([
      { name: 'Ash Avery', signed_up: true, present: true },
      { name: 'Jordan Lee', signed_up: false, present: true },
      { name: 'Robin Avery', signed_up: true, present: false },
    ])
    expect(res.body.recorded_by).toBe(leader.email)
    expect(await logCount()).toBe(logs + 1)
    const log = await s.lastLog('calendar.attendance')
    expect(log.actor).toBe(leader.email)
    expect(log.summary).toBe(`"Winter campout" on ${soon(-1)}: Sam, Cy Cole, Ash Avery and Jordan Lee came`)
    const rows = await s.db.selectFrom('attendance').selectAll().where('event_uid', '=', uid).orderBy('scout_id').execute()
    expect(rows.map((r) => [r.scout_id, r.present, r.unit])).toEqual([
      [ash.scouts[0], 1, 'troop'],
      [casey.scouts[0], 1, 'troop'],
    ])

    // One tap: one scout sent, the others stay as marked; a mistaken mark is taken back.
    const tap = await take(uid, { scouts: [{ scout_id: casey.scouts[0], present: false }] })
    expect(tap.status).toBe(200)
    const after = Object.fromEntries(tap.body.scouts.map((x: any) => [x.name, x.present]))
    expect(after).toEqual({ 'Bo Brook': false, 'Cy Cole': false, Sam: true })
    expect((await s.lastLog('calendar.attendance')).summary).toBe(`"Winter campout" on ${soon(-1)}: Cy Cole did not`)
    // The same marks again from another leader's phone spelling the adult differently: still one Ash Avery.
    expect((await take(uid, { scouts: [], adults: [{ name: 'ash avery', present: false }] })).body.adults[0]).toEqual({
      name: 'Ash Avery',
      signed_up: true,
      present: false,
    })
  })

  it('is for leaders of the event’s units: 401 without a credential, 403 for a member and for the other unit’s leader', async () => {
    const { uid, ash } = await campout()
    await started(uid)
    const member = await s.as(ROLES.member)
    const packLeader = await s.as(ROLES.packLeader)
    const body = { scouts: [{ scout_id: ash.scouts[0], present: true }] }
    expect((await s.req('GET', attendancePath(uid))).status).toBe(401)
    expect((await s.req('PUT', attendancePath(uid), { json: body })).status).toBe(401)
    expect((await read(uid, member.cookie)).body.code).toBe('capability_missing')
    expect((await take(uid, body, member.cookie)).status).toBe(403)
    for (const res of [await read(uid, packLeader.cookie), await take(uid, body, packLeader.cookie)]) {
      expect(res.status).toBe(403)
      expect(res.body.code).toBe('unit_out_of_scope')
    }
    const troopLeader = await s.as(ROLES.troopLeader)
    expect((await take(uid, body, troopLeader.cookie)).status).toBe(200)
  })

  it('answers 404 for an unknown event and for a date the event is not on', async () => {
    expect((await read('no-such-event@example.org')).status).toBe(404)
    expect((await take('no-such-event@example.org', { scouts: [{ scout_id: 1, present: true }] })).status).toBe(404)
    const { uid } = await campout()
    expect((await read(uid, leader.cookie, soon(3))).status).toBe(404)
  })

  it('refuses bad bodies with 422 naming the field, writing nothing', async () => {
    const { uid, ash } = await campout()
    await started(uid)
    const pack = await familyAccount(s, { unit: 'pack', email: null, scouts: [{ first_name: 'Pip', last_name: 'Pack' }] })
    const logs = await logCount()
    for (const [json, field] of [
      [{}, 'scouts'],
      [{ scouts: [{ scout_id: ash.scouts[0] }] }, 'present'],
      [{ scouts: [{ scout_id: ash.scouts[0], present: 'yes' }] }, 'present'],
      [{ scouts: [{ scout_id: 0, present: true }] }, 'scout_id'],
      [{ scouts: [] }, 'scouts'],
      [{ scouts: [], adults: [{ name: ' ', present: true }] }, 'adults'],
      [{ scouts: [{ scout_id: 999999, present: true }] }, 'scouts'],
      [{ scouts: [{ scout_id: pack.scouts[0], present: true }] }, 'scouts'],
      [
        {
          scouts: [
            { scout_id: ash.scouts[0], present: true },
            { scout_id: ash.scouts[0], present: false },
          ],
        },
        'scouts',
      ],
      [
        {
          scouts: [],
          adults: [
            { name: 'Ash Avery', present: true },
            { name: 'ASH AVERY', present: true },
          ],
        },
        'adults',
      ],
      [{ scouts: [{ scout_id: ash.scouts[0], present: true }], extra: 1 }, 'extra'],
    ] as const) {
      const res = await take(uid, json)
      expect(res.status).toBe(422)
      expect(res.body.detail).toContain(field)
    }
    expect(await logCount()).toBe(logs)
    expect(await s.db.selectFrom('attendance').select('scout_id').where('event_uid', '=', uid).execute()).toEqual([])
  })

  it('does a retry with the same Idempotency-Key once, answering the first answer again', async () => {
    const { uid, blake } = await campout()
    await started(uid)
    const logs = await logCount()
    const body = { scouts: [{ scout_id: blake.scouts[0], present: true }] }
    const first = await take(uid, body, leader.cookie, { 'idempotency-key': 'tap-bo-1' })
    const again = await take(uid, body, leader.cookie, { 'idempotency-key': 'tap-bo-1' })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await logCount()).toBe(logs + 1)
    const reused = await take(uid, { scouts: [{ scout_id: blake.scouts[0], present: false }] }, leader.cookie, {
      'idempotency-key': 'tap-bo-1',
    })
    expect(reused.status).toBe(422)
    expect(reused.body.code).toBe('idempotency_key_reused')
  })

  it('a keyed PUT still honours If-Match: a stale ETag is 412 and writes nothing', async () => {
    const { uid, blake } = await campout()
    await started(uid)
    const etag = (await read(uid)).headers.get('etag')!
    expect(etag).toBeTruthy()
    const body = { scouts: [{ scout_id: blake.scouts[0], present: true }] }
    expect((await take(uid, body, leader.cookie, { 'if-match': etag, 'idempotency-key': 'fresh-1' })).status).toBe(200)
    const logs = await logCount()
    const stale = await take(uid, { scouts: [{ scout_id: blake.scouts[0], present: false }] }, leader.cookie, {
      'if-match': etag,
      'idempotency-key': 'stale-1',
    })
    expect(stale.status).toBe(412)
    expect(await logCount()).toBe(logs)
  })

  it('an event for both units with no sign-up lists every active scout; each unit’s leader sees and marks their own', async () => {
    const res = await create({ title: 'Joint service day', unit: 'both', date: soon(-1), kind: 'service', service_hours: 3 })
    const uid = res.body.uid
    const pack = await familyAccount(s, { unit: 'pack', email: null, scouts: [{ first_name: 'Pia', last_name: 'Joint' }] })
    const troop = await familyAccount(s, { unit: 'troop', email: null, scouts: [{ first_name: 'Tom', last_name: 'Joint' }] })
    const both = await read(uid)
    expect(both.body).toMatchObject({ signup: false, started: true, service_hours: 3, others: [] })
    expect(names(both.body.scouts)).toContain('Pia Joint')
    expect(names(both.body.scouts)).toContain('Tom Joint')
    expect(both.body.scouts.every((x: any) => x.signed_up === false && x.present === false)).toBe(true)

    const packLeader = await s.as(ROLES.packLeader)
    const mine = await read(uid, packLeader.cookie)
    expect(mine.status).toBe(200)
    expect(mine.body.scouts.every((x: any) => x.unit === 'pack')).toBe(true)
    expect(names(mine.body.scouts)).toContain('Pia Joint')
    const theirs = await take(uid, { scouts: [{ scout_id: troop.scouts[0], present: true }] }, packLeader.cookie)
    expect(theirs.status).toBe(403)
    expect(theirs.body.code).toBe('unit_out_of_scope')
    const ok = await take(
      uid,
      { scouts: [{ scout_id: pack.scouts[0], present: true }], adults: [{ name: 'Cubmaster Lee', present: true }] },
      packLeader.cookie,
    )
    expect(ok.status).toBe(200)
    expect(ok.body.adults).toEqual([{ name: 'Cubmaster Lee', signed_up: false, present: true }])
  })

  it('a scout who moves from the pack to the troop keeps the unit they came with', async () => {
    const res = await create({ title: 'Pack hike', unit: 'pack', date: soon(-1), kind: 'hike', miles: 5 })
    const uid = res.body.uid
    const f = await familyAccount(s, { unit: 'pack', email: null, scouts: [{ first_name: 'Max', last_name: 'Mover' }] })
    expect((await take(uid, { scouts: [{ scout_id: f.scouts[0], present: true }] })).status).toBe(200)
    const troop = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    await s.db.updateTable('scouts').set({ unit_id: troop.id }).where('id', '=', f.scouts[0]).execute()
    const after = await read(uid)
    expect(after.body.scouts.find((x: any) => x.scout_id === f.scouts[0])).toMatchObject({ unit: 'pack', present: true })
    const row = await s.db.selectFrom('attendance').select('unit').where('scout_id', '=', f.scouts[0]).executeTakeFirstOrThrow()
    expect(row.unit).toBe('pack')
  })

  it('a repeating event takes attendance per occurrence, by its date', async () => {
    const res = await create({
      title: 'Troop meeting',
      date: soon(-14),
      time: '19:00',
      repeat: 'weekly',
      repeat_until: soon(14),
      kind: 'meeting',
    })
    expect(res.status).toBe(201)
    const uid = res.body.uid
    const f = await familyAccount(s, { unit: 'troop', email: null, scouts: [{ first_name: 'Wes', last_name: 'Weekly' }] })
    const body = { scouts: [{ scout_id: f.scouts[0], present: true }] }
    const missing = await read(uid)
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toContain('date')
    expect((await read(uid, leader.cookie, soon(-13))).status).toBe(404)
    const past = await take(uid, body, leader.cookie, {}, soon(-14))
    expect(past.status).toBe(200)
    expect(past.body).toMatchObject({ date: soon(-14), kind: 'meeting', started: true })
    const next = await read(uid, leader.cookie, soon(-7))
    expect(next.body.scouts.find((x: any) => x.scout_id === f.scouts[0]).present).toBe(false)
    expect((await take(uid, body, leader.cookie, {}, soon(7))).body.code).toBe('event_not_started')
    expect(await eventCounts(s.db, `${uid}#${soon(-14)}`)).toEqual({ kind: 'meeting', nights: 0, service_hours: 0, miles: 0 })
    // The calendar lists past occurrences only when asked, to take attendance after the fact.
    const listed = async (query: string) =>
      (await s.req('GET', `/api/admin/calendar${query}`, { cookie: leader.cookie })).body.events
        .filter((e: any) => e.uid === uid)
        .map((e: any) => e.date)
    expect(await listed('')).not.toContain(soon(-7))
    expect(await listed('?past_days=14')).toEqual(expect.arrayContaining([soon(-14), soon(-7), soon(0), soon(7), soon(14)]))
    expect((await s.req('GET', '/api/admin/calendar?past_days=63', { cookie: leader.cookie })).status).toBe(422)
    const rows = await s.db.selectFrom('attendance').select('event_uid').where('scout_id', '=', f.scouts[0]).execute()
    expect(rows).toEqual([{ event_uid: `${uid}#${soon(-14)}` }])
  })
})
