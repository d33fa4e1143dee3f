// Replies to events (RSVPs) against a real Radicale: a leader asks, families answer for their own household
// until the event starts, leaders see headcounts and a CSV; replies outlive a deleted event by 30 days.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { type Radicale, startRadicale } from '../radicale.ts'

let dav: Radicale
let s: TestServer
let leader: { cookie: string; email: string }
let admin: { cookie: string }
beforeAll(async () => {
  dav = await startRadicale()
  s = await startServer(dav.env)
  leader = await s.as(ROLES.packLeader)
  admin = await s.as(ROLES.admin)
})
afterAll(async () => {
  await s.stop()
  await dav.stop()
})

const addDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)
const createEvent = async (json: Record<string, unknown>) => {
  const res = await s.req('POST', '/api/admin/calendar', { cookie: leader.cookie, json: { unit: 'pack', ...json } })
  expect(res.status).toBe(201)
  return res.body.uid as string
}
const rsvps = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps`

/** A family account linked to a new household (or to several). */
async function family(...parents: string[]) {
  const person = await s.as(ROLES.member)
  const ids: number[] = []
  for (const parent_name of parents) {
    const h = await s.req('POST', '/api/admin/roster/households', { cookie: leader.cookie, json: { parent_name } })
    expect(h.status).toBe(201)
    const linked = await s.req('PUT', `/api/admin/roster/households/${h.body.id}/people`, {
      cookie: admin.cookie,
      json: { person_ids: [person.id] },
    })
    expect(linked.status).toBe(200)
    ids.push(h.body.id)
  }
  return { ...person, households: ids }
}

const listed = async (uid: string) =>
  (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events.find((e: any) => e.uid === uid)

describe('asking for replies', () => {
  it('a leader asks on a one-time event; the list shows rsvp and headcounts; a repeating event cannot ask (422)', async () => {
    const uid = await createEvent({ title: 'Pinewood derby', date: addDays(20), time: '10:00', location: 'School gym', rsvp: true })
    const shown = await listed(uid)
    expect(shown.rsvp).toBe(true)
    expect(shown.replies).toEqual({
      yes: { households: 0, adults: 0, scouts: 0 },
      maybe: { households: 0, adults: 0, scouts: 0 },
      no: { households: 0, adults: 0, scouts: 0 },
    })
    const plain = await listed(await createEvent({ title: 'Plain meeting', date: addDays(21) }))
    expect(plain.rsvp).toBe(false)
    expect(plain.replies).toBeUndefined()
    const repeating = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Weekly', date: addDays(5), repeat: 'weekly', repeat_until: addDays(40), rsvp: true },
    })
    expectDetail(repeating, 422)
    expect(repeating.body.detail).toStartWith('rsvp:')
  })
})

describe('PUT and GET /api/admin/calendar/{uid}/rsvps', () => {
  it('a family answers for its household, changes its answer, and sees only its own reply; leaders see all with headcounts', async () => {
    const uid = await createEvent({ title: 'Holiday party', date: addDays(25), time: '18:00', location: 'Hall', rsvp: true })
    const rivera = await family('Dana Rivera')
    const park = await family('Casey Park')

    const before = await s.req('GET', rsvps(uid), { cookie: rivera.cookie })
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({
      uid,
      title: 'Holiday party',
      asking: true,
      open: true,
      gone_at: null,
      location: 'Hall',
      replies: [],
    })
    expect(before.body.totals).toBeUndefined()

    const first = await s.req('PUT', rsvps(uid), { cookie: rivera.cookie, json: { answer: 'maybe', adults: 1, scouts: 1 } })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      household_id: rivera.households[0],
      household: 'Dana Rivera',
      answer: 'maybe',
      answered_by: rivera.email,
    })
    const changed = await s.req('PUT', rsvps(uid), {
      cookie: rivera.cookie,
      json: { answer: 'yes', adults: 2, scouts: 3, note: 'We arrive late' },
    })
    expect(changed.status).toBe(200)
    expect((await s.lastLog('calendar.rsvp')).summary).toMatch(/^Dana Rivera: coming, 2 adults and 3 scouts for “Holiday party”, /)
    expect((await s.req('PUT', rsvps(uid), { cookie: park.cookie, json: { answer: 'no', adults: 0, scouts: 0 } })).status).toBe(200)

    const own = await s.req('GET', rsvps(uid), { cookie: rivera.cookie })
    expect(own.body.replies.map((r: any) => [r.household, r.answer, r.adults, r.scouts, r.note])).toEqual([
      ['Dana Rivera', 'yes', 2, 3, 'We arrive late'],
    ])
    const all = await s.req('GET', rsvps(uid), { cookie: leader.cookie })
    expect(all.body.replies.map((r: any) => `${r.household} ${r.answer}`)).toEqual(['Casey Park no', 'Dana Rivera yes'])
    expect(all.body.totals).toEqual({
      yes: { households: 1, adults: 2, scouts: 3 },
      maybe: { households: 0, adults: 0, scouts: 0 },
      no: { households: 1, adults: 0, scouts: 0 },
    })
    expect((await listed(uid)).replies.yes).toEqual({ households: 1, adults: 2, scouts: 3 })

    const page = await s.req('GET', '/api/admin/family', { cookie: rivera.cookie })
    const asked = page.body.events.find((e: any) => e.uid === uid)
    expect(asked).toMatchObject({ title: 'Holiday party', open: true, replies: [{ answer: 'yes', adults: 2, scouts: 3 }] })

    const csv = await s.req('GET', `${rsvps(uid)}/export`, { cookie: leader.cookie })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toStartWith('text/csv')
    expect(csv.headers.get('content-disposition')).toContain(`replies-${addDays(25)}-holiday-party.csv`)
    const lines = csv.text
      .trim()
      .split(/\r?\n/)
      .map((line) => line.replaceAll('"', ''))
    expect(lines[0]).toBe('household,answer,adults,scouts,note,answered_by,answered_at')
    expect(lines[1]).toStartWith(`Casey Park,no,0,0,,${park.email},`)
    expect(lines[2]).toStartWith(`Dana Rivera,yes,2,3,We arrive late,${rivera.email},`)
    expect(lines.slice(3)).toEqual(['Total: 1 household,yes,2,3,,,', 'Total: 0 households,maybe,0,0,,,', 'Total: 1 household,no,0,0,,,'])
    expect((await s.req('GET', `${rsvps(uid)}/export`, { cookie: rivera.cookie })).status).toBe(403)
  })

  it('refuses what a family may not do: 401, 403 without or outside its household, 404, 409 once started, 422 for bad input', async () => {
    const uid = await createEvent({ title: 'Campout', date: addDays(30), rsvp: true })
    const reply = { answer: 'yes', adults: 1, scouts: 1 }
    expect((await s.req('PUT', rsvps(uid), { json: reply })).status).toBe(401)
    expectDetail(await s.req('PUT', rsvps(uid), { cookie: (await s.as(ROLES.member)).cookie, json: reply }), 403) // no household
    const two = await family('Household one', 'Household two')
    const other = await family('Someone else')
    const which = await s.req('PUT', rsvps(uid), { cookie: two.cookie, json: reply })
    expectDetail(which, 422)
    expect(which.body.detail).toStartWith('household_id:')
    expect((await s.req('PUT', rsvps(uid), { cookie: two.cookie, json: { ...reply, household_id: two.households[1] } })).status).toBe(200)
    expectDetail(await s.req('PUT', rsvps(uid), { cookie: two.cookie, json: { ...reply, household_id: other.households[0] } }), 403)
    for (const bad of [
      { ...reply, answer: 'perhaps' },
      { ...reply, adults: 21 },
      { ...reply, scouts: -1 },
      { ...reply, adults: '1' },
      { answer: 'yes' },
      { ...reply, colour: 'red' },
    ])
      expectDetail(await s.req('PUT', rsvps(uid), { cookie: other.cookie, json: bad }), 422)
    expectDetail(await s.req('PUT', rsvps('no-such-event@example.org'), { cookie: other.cookie, json: reply }), 404)
    expectDetail(await s.req('GET', rsvps('no-such-event@example.org'), { cookie: leader.cookie }), 404)
    const notAsking = await createEvent({ title: 'No replies wanted', date: addDays(31) })
    expectDetail(await s.req('PUT', rsvps(notAsking), { cookie: other.cookie, json: reply }), 404)
    expectDetail(await s.req('GET', rsvps(notAsking), { cookie: other.cookie }), 404)

    const started = await createEvent({ title: 'Already started', date: addDays(-1), rsvp: true })
    const closed = await s.req('PUT', rsvps(started), { cookie: other.cookie, json: reply })
    expectDetail(closed, 409)
    expect((await s.req('GET', rsvps(started), { cookie: other.cookie })).body.open).toBe(false)
  })

  it('stopping asking keeps the replies for leaders and closes them for families', async () => {
    const uid = await createEvent({ title: 'Service day', date: addDays(40), rsvp: true })
    const f = await family('Jo Lee')
    expect((await s.req('PUT', rsvps(uid), { cookie: f.cookie, json: { answer: 'yes', adults: 1, scouts: 2 } })).status).toBe(200)
    const stop = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, {
      cookie: leader.cookie,
      json: { title: 'Service day', date: addDays(40), unit: 'pack', rsvp: false },
    })
    expect(stop.status).toBe(200)
    expect(stop.body.rsvp).toBe(false)
    expectDetail(await s.req('PUT', rsvps(uid), { cookie: f.cookie, json: { answer: 'no', adults: 0, scouts: 0 } }), 404)
    const kept = await s.req('GET', rsvps(uid), { cookie: leader.cookie })
    expect(kept.body).toMatchObject({ asking: false, open: false, replies: [{ household: 'Jo Lee', answer: 'yes' }] })
    expect((await listed(uid)).replies.yes.scouts).toBe(2)
  })

  it('an event deleted from the store keeps its replies readable for leaders for 30 days, then they are dropped', async () => {
    const uid = await createEvent({ title: 'Court of honor', date: addDays(50), rsvp: true })
    const f = await family('Sam Ortiz')
    expect((await s.req('PUT', rsvps(uid), { cookie: f.cookie, json: { answer: 'yes', adults: 2, scouts: 1 } })).status).toBe(200)
    expect((await s.req('DELETE', `/api/admin/calendar/${encodeURIComponent(uid)}`, { cookie: leader.cookie })).status).toBe(200)
    const after = await s.req('GET', rsvps(uid), { cookie: leader.cookie })
    expect(after.status).toBe(200)
    expect(after.body.gone_at).not.toBeNull()
    expect(after.body.replies.length).toBe(1)
    expectDetail(await s.req('GET', rsvps(uid), { cookie: f.cookie }), 404)
    expect((await s.req('GET', '/api/admin/family', { cookie: f.cookie })).body.events.some((e: any) => e.uid === uid)).toBe(false)
    const list = await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    expect(list.body.events.some((e: any) => e.uid === uid)).toBe(false)
    expect(list.body.deleted_with_replies.find((e: any) => e.uid === uid)).toMatchObject({
      title: 'Court of honor',
      date: addDays(50),
      totals: { yes: { households: 1, adults: 2, scouts: 1 } },
    })

    // Deleted in another app: the next read of the store notices.
    const other = await createEvent({ title: 'Deleted on a phone', date: addDays(51), rsvp: true })
    const res = await fetch(`${dav.url}${encodeURIComponent(other)}.ics`, { method: 'DELETE', headers: dav.auth })
    expect(res.ok).toBe(true)
    await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    expect((await s.req('GET', rsvps(other), { cookie: leader.cookie })).body.gone_at).not.toBeNull()

    // 31 days on, the next read drops them and says so in the history.
    await s.db
      .updateTable('rsvp_events')
      .set({ gone_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('uid', '=', uid)
      .execute()
    await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    expectDetail(await s.req('GET', rsvps(uid), { cookie: leader.cookie }), 404)
    expect(
      (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.deleted_with_replies.some((e: any) => e.uid === uid),
    ).toBe(false)
    expect(await s.db.selectFrom('rsvps').select('uid').where('uid', '=', uid).execute()).toEqual([])
    expect((await s.lastLog('calendar.rsvp_drop')).summary).toContain('“Court of honor”')
    expect((await s.req('GET', rsvps(other), { cookie: leader.cookie })).status).toBe(200)
  })
})
