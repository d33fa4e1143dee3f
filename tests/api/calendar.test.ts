// Calendar routes against a real Radicale: what is written to the store, `mine`, 403 before the store, 409, 502 and 404.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import ICAL from 'ical.js'
import { updateCalendarObject } from 'tsdav'
import { ADMIN_TOKEN, expectFoldedWithin75Octets, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'
import { type Radicale, startRadicale } from '../radicale.ts'
import { sql } from 'kysely'
import { toICalendar } from '../../server/calendar/event.ts'
import { CalDavStore } from '../../server/calendar/caldav-store.ts'
import { addDays, compact, today, upcoming } from '../dates.ts'

let dav: Radicale
let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  dav = await startRadicale()
  s = await startServer(dav.env)
  // A leader of both units: these tests write events for either (a leader writes only their units' events).
  leader = await s.as({
    units: [
      { slug: 'pack', role: 'leader' },
      { slug: 'troop', role: 'leader' },
    ],
  })
})
afterAll(async () => {
  await s.stop()
  await dav.stop()
})

const create = (json: Record<string, unknown>) => s.req('POST', '/api/admin/calendar', { cookie: leader.cookie, json })
/** The raw iCalendar the store holds for a uid, read from Radicale directly. */
async function stored(uid: string): Promise<{ text: string; event: ICAL.Component; etag: string }> {
  const res = await fetch(`${dav.url}${encodeURIComponent(uid)}.ics`, { headers: dav.auth })
  const text = await res.text()
  return { text, event: new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!, etag: res.headers.get('etag')! }
}

describe('POST /api/admin/calendar', () => {
  it('folds long lines at 75 octets at most, never inside a character (RFC 5545 §3.1), and they unfold to the same text', async () => {
    const ascii = 'Spring camporee at Camp Oak: ' + 'bring tents, stoves, water, rain gear; '.repeat(8)
    const japanese = '春のキャンポリー、オーク野営場にて。テント・コンロ・水・雨具を持参してください。'.repeat(4)
    const date = upcoming(4)
    for (const title of [ascii.slice(0, 200), japanese.slice(0, 200)]) {
      const res = await create({ title, date, description: title + ' ' + title })
      expect(res.status).toBe(201)
      // What the site sends (the store may fold again on its own), and what the store then holds.
      const sent = toICalendar(res.body.uid, { title, date, unit: 'both', description: title }, 'America/Chicago')
      expect(sent).toContain('\r\n ') // it was folded at all
      expectFoldedWithin75Octets(new TextEncoder().encode(sent))
      const raw = await fetch(`${dav.url}${encodeURIComponent(res.body.uid)}.ics`, { headers: dav.auth })
      expectFoldedWithin75Octets(new Uint8Array(await raw.arrayBuffer()))
      const { event } = await stored(res.body.uid)
      expect(event.getFirstPropertyValue('summary')).toBe(title)
      expect(event.getFirstPropertyValue('description')).toBe(title + ' ' + title)
    }
  })

  it('writes an all-day event as DATE values with an exclusive DTEND (end inclusive in the API)', async () => {
    const first = upcoming(1, 3)
    const res = await create({
      title: 'Winter camp',
      date: first,
      end: addDays(first, 2),
      unit: 'troop',
      location: 'Camp Oak',
      badge: 'Camping',
      description: 'Bring a sleeping bag',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ title: 'Winter camp', mine: true })
    const { event } = await stored(res.body.uid)
    expect(event.getFirstProperty('dtstart')!.type).toBe('date')
    expect(event.getFirstPropertyValue('dtstart')!.toString()).toBe(first)
    expect(event.getFirstPropertyValue('dtend')!.toString()).toBe(addDays(first, 3))
    expect(event.getFirstPropertyValue('location')).toBe('Camp Oak')
    expect(event.getFirstPropertyValue('description')).toBe('Bring a sleeping bag')
    expect(event.getFirstPropertyValue('x-site-unit')).toBe('troop')
    expect(event.getFirstPropertyValue('x-site-badge')).toBe('Camping')
    const log = await s.lastLog('calendar.create')
    expect(log.actor).toBe(leader.email)
  })

  it('writes a timed event in UTC from the site time zone, lasting 90 minutes without end_time, and reads it back the same', async () => {
    const summer = upcoming(7, 1)
    const res = await create({ title: 'Troop meeting', date: summer, time: '19:00', unit: 'troop' })
    const { event } = await stored(res.body.uid)
    const start = event.getFirstPropertyValue('dtstart') as ICAL.Time
    const end = event.getFirstPropertyValue('dtend') as ICAL.Time
    // America/Chicago is UTC-5 in July.
    expect(start.toString()).toBe(`${addDays(summer, 1)}T00:00:00Z`)
    expect(end.toJSDate().getTime() - start.toJSDate().getTime()).toBe(90 * 60_000)
    const list = await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    expect(list.body.events.find((e: any) => e.uid === res.body.uid)).toMatchObject({
      date: summer,
      time: '19:00',
      end_time: '20:30',
      unit: 'troop',
      mine: true,
    })
    // And UTC-6 in January.
    const january = upcoming(1, 1)
    const winter = await create({ title: 'Pack meeting', date: january, time: '18:30', end_time: '19:45', unit: 'pack' })
    expect(((await stored(winter.body.uid)).event.getFirstPropertyValue('dtstart') as ICAL.Time).toString()).toBe(
      `${addDays(january, 1)}T00:30:00Z`,
    )
  })

  it('answers 422 for a missing title or date, bad formats, an end before the date, or an unknown field', async () => {
    const d = upcoming(2, 4)
    for (const body of [
      { date: d },
      { title: 'No date' },
      { title: 'x', date: `${d.slice(0, 4)}-02-30` },
      { title: 'x', date: d.replaceAll('-', '/') },
      { title: 'x', date: d, time: '7pm' },
      { title: 'x', date: d, time: '19:00', end_time: '25:00' },
      { title: 'x', date: addDays(d, 4), end: d },
      { title: 'x', date: d, end_time: '20:00' },
      { title: 'x', date: d, time: '19:00', end_time: '18:00' },
      { title: 'x', date: d, unit: 'crew' },
      { title: 'x', date: d, colour: 'red' },
      { title: 'x', date: '0099-12-31' },
      { title: 'x', date: d, end: '2200-01-01' },
    ]) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(typeof res.body.detail).toBe('string')
    }
  })
})

describe('repeating events', () => {
  const chicagoOffset = (date: string) =>
    new Date(`${date}T18:00:00Z`).toLocaleString('en-US', { timeZone: 'America/Chicago', hour: 'numeric', hour12: false })
  /** A Tuesday two weeks before Chicago's next clock change, so five weekly repeats cross it. */
  function tuesdayBeforeClockChange(): string {
    let d = addDays(today(), 21)
    while (chicagoOffset(d) === chicagoOffset(addDays(d, 1))) d = addDays(d, 1)
    d = addDays(d, -14)
    while (new Date(`${d}T12:00:00Z`).getUTCDay() !== 2) d = addDays(d, -1)
    return d
  }
  const listed = async (uid: string) =>
    (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events.filter((e: any) => e.uid === uid)

  it('writes a weekly evening meeting in the site time zone (TZID with its VTIMEZONE), so it stays at 7 PM across the clock change; skipped days are EXDATEs', async () => {
    const first = tuesdayBeforeClockChange()
    const until = addDays(first, 28)
    const skip = addDays(first, 7)
    const res = await create({
      title: 'Troop meeting',
      date: first,
      time: '19:00',
      end_time: '20:30',
      unit: 'troop',
      repeat: 'weekly',
      repeat_until: until,
      skip_dates: [skip],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ repeat: 'weekly', repeat_until: until, skip_dates: [skip] })
    const { text, event } = await stored(res.body.uid)
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:America/Chicago')
    expect(event.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/Chicago')
    expect(String(event.getFirstPropertyValue('rrule'))).toMatch(/^FREQ=WEEKLY;UNTIL=\d{8}T\d{6}Z$/)
    expect(event.getFirstProperty('exdate')!.getParameter('tzid')).toBe('America/Chicago')
    const shown = await listed(res.body.uid)
    expect(shown.map((e: any) => `${e.date} ${e.time}-${e.end_time}`)).toEqual(
      [0, 14, 21, 28].map((n) => `${addDays(first, n)} 19:00-20:30`),
    )
    expect(shown.every((e: any) => e.recurring && e.mine && e.first_date === first && e.repeat === 'weekly')).toBe(true)
    expect(shown[0].skip_dates).toEqual([skip])
    expect((await s.lastLog('calendar.create')).summary).toContain('weekly')
  })

  it('repeats monthly on the same weekday (2nd Tuesday; a 5th weekday is the last one) or on the same date, all-day ones as DATE values', async () => {
    const months = (first: string, n: number) => {
      const [y, m] = first.split('-').map(Number)
      return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 10)
    }
    const nthWeekday = (monthStart: string, weekday: number, nth: number) => {
      let d = monthStart
      while (new Date(`${d}T12:00:00Z`).getUTCDay() !== weekday) d = addDays(d, 1)
      return addDays(d, 7 * (nth - 1))
    }
    const next = months(today(), 1)
    const second = nthWeekday(next, 2, 2)
    const res = await create({
      title: 'Committee',
      date: second,
      time: '19:30',
      repeat: 'monthly_weekday',
      repeat_until: addDays(second, 100),
    })
    expect(res.status).toBe(201)
    expect(String((await stored(res.body.uid)).event.getFirstPropertyValue('rrule'))).toContain('BYDAY=2TU')
    expect((await listed(res.body.uid)).map((e: any) => e.date)).toEqual(
      [0, 1, 2, 3].map((n) => nthWeekday(months(next, n), 2, 2)).filter((d) => d <= addDays(second, 100)),
    )

    // A month whose 5th Wednesday exists starts a "last Wednesday" series.
    let m = next
    while (addDays(nthWeekday(m, 3, 5), 0).slice(0, 7) !== m.slice(0, 7)) m = months(m, 1)
    const last = await create({
      title: 'Court of honor',
      date: nthWeekday(m, 3, 5),
      repeat: 'monthly_weekday',
      repeat_until: addDays(m, 75),
    })
    expect(last.status).toBe(201)
    expect(String((await stored(last.body.uid)).event.getFirstPropertyValue('rrule'))).toContain('BYDAY=-1WE')
    for (const e of await listed(last.body.uid)) expect(addDays(e.date, 7).slice(0, 7)).not.toBe(e.date.slice(0, 7))

    const dated = await create({
      title: 'Dues day',
      date: addDays(next, 4),
      repeat: 'monthly_date',
      repeat_until: addDays(next, 70),
      skip_dates: [months(next, 1).slice(0, 8) + '05'],
    })
    expect(dated.status).toBe(201)
    const { event } = await stored(dated.body.uid)
    expect(event.getFirstProperty('dtstart')!.type).toBe('date')
    expect(String(event.getFirstPropertyValue('rrule'))).toBe(`FREQ=MONTHLY;UNTIL=${addDays(next, 70).replaceAll('-', '')}`)
    expect((await listed(dated.body.uid)).map((e: any) => e.date)).toEqual([addDays(next, 4), months(next, 2).slice(0, 8) + '05'])
  })

  it('changes a series by PUT with its first day as date, and makes it one-time again without repeat', async () => {
    const first = addDays(today(), 10)
    const res = await create({
      title: 'Den meeting',
      date: first,
      time: '18:00',
      unit: 'pack',
      repeat: 'weekly',
      repeat_until: addDays(first, 21),
    })
    const path = `/api/admin/calendar/${encodeURIComponent(res.body.uid)}`
    const [, second] = await listed(res.body.uid)
    const { uid, mine, recurring, first_date, ...body } = second
    const skipped = await s.req('PUT', path, { cookie: leader.cookie, json: { ...body, date: first_date, skip_dates: [second.date] } })
    expect(skipped.status).toBe(200)
    expect((await listed(res.body.uid)).map((e: any) => e.date)).toEqual([0, 14, 21].map((n) => addDays(first, n)))
    const once = await s.req('PUT', path, {
      cookie: leader.cookie,
      json: { title: 'Den meeting', date: first, time: '18:00', unit: 'pack' },
    })
    expect(once.status).toBe(200)
    const single = await listed(res.body.uid)
    expect(single.length).toBe(1)
    expect(single[0].recurring).toBe(false)
  })

  it('answers 422 naming the field for a repeat it cannot keep', async () => {
    const d = addDays(today(), 5)
    const cases: [Record<string, unknown>, string][] = [
      [{ repeat: 'weekly' }, 'repeat_until'],
      [{ repeat: 'weekly', repeat_until: addDays(d, -1) }, 'repeat_until'],
      [{ repeat: 'weekly', repeat_until: addDays(d, 3 * 366 + 1) }, 'repeat_until'],
      [{ repeat: 'fortnightly', repeat_until: addDays(d, 30) }, 'repeat'],
      [{ repeat_until: addDays(d, 30) }, 'repeat'],
      [{ skip_dates: [addDays(d, 7)] }, 'repeat'],
      [{ repeat: 'weekly', repeat_until: addDays(d, 30), skip_dates: [addDays(d, 3)] }, 'skip_dates'],
      [{ repeat: 'weekly', repeat_until: addDays(d, 30), end: addDays(d, 7) }, 'end'],
    ]
    for (const [extra, field] of cases) {
      const res = await create({ title: 'Bad repeat', date: d, ...extra })
      expect(res.status, JSON.stringify(extra)).toBe(422)
      expect(res.body.detail, JSON.stringify(extra)).toStartWith(`${field}:`)
    }
    let the30th = addDays(today(), 1)
    while (!the30th.endsWith('-30')) the30th = addDays(the30th, 1)
    const monthly = await create({ title: 'Bad repeat', date: the30th, repeat: 'monthly_date', repeat_until: addDays(the30th, 90) })
    expect(monthly.status).toBe(422)
    expect(monthly.body.detail).toContain('some months have no 30th')
  })
})

describe('GET /api/admin/calendar', () => {
  it('lists events from other CalDAV clients with mine: false, recurring ones expanded, in date order', async () => {
    // 01:00 UTC is the evening before in Chicago, in winter and summer time alike; a month ahead leaves room for the
    // three weeks inside the calendar's window on any day of the year.
    const utcDay = addDays(today(), 30)
    const status = await dav.putForeign('committee.ics', [
      'UID:committee@other-client',
      `DTSTART:${compact(utcDay)}T010000Z`,
      `DTEND:${compact(utcDay)}T020000Z`,
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'SUMMARY:Committee meeting',
    ])
    expect(status).toBe(201)
    const list = await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
    expect(list.status).toBe(200)
    expect(list.body.configured).toBe(true)
    const committee = list.body.events.filter((e: any) => e.uid === 'committee@other-client')
    expect(committee.map((e: any) => e.date)).toEqual([-1, 6, 13].map((n) => addDays(utcDay, n)))
    expect(committee.every((e: any) => e.mine === false)).toBe(true)
    const dates = list.body.events.map((e: any) => `${e.date} ${e.time ?? ''}`)
    expect(dates).toEqual([...dates].sort())
  })

  it('lists by start in the site time zone, earliest first: an evening event before the next all-day one, recurrences among them', async () => {
    // Regina keeps UTC-6 all year, so evenings there are the next day in UTC whatever the date.
    const zone = (value: string | null) => s.req('PUT', '/api/admin/settings/site.timezone', { token: ADMIN_TOKEN, json: { value } })
    expect((await zone('America/Regina')).status).toBe(200)
    const plus = (days: number) => new Date(Date.now() + (30 + days) * 86_400_000).toISOString().slice(0, 10)
    try {
      const order = [
        await create({ title: 'Order: late campfire', date: plus(1), time: '20:00' }), // 02:00 UTC the next day
        await create({ title: 'Order: all-day hike', date: plus(2) }),
        await create({ title: 'Order: morning swim', date: plus(3), time: '09:00' }),
        await create({ title: 'Order: all-day service', date: plus(0) }),
      ]
      expect(order.map((r) => r.status)).toEqual([201, 201, 201, 201])
      const status = await dav.putForeign('order.ics', [
        'UID:order-weekly@other-client',
        `DTSTART:${compact(plus(-4))}T010000Z`, // 19:00 in Regina the evening before
        `DTEND:${compact(plus(-4))}T020000Z`,
        'RRULE:FREQ=WEEKLY;COUNT=2',
        'SUMMARY:Order: weekly den meeting',
      ])
      expect(status).toBe(201)
      const list = await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })
      const shown = list.body.events
        .filter((e: any) => e.title.startsWith('Order: '))
        .map((e: any) => `${e.date} ${e.time ?? 'all day'} ${e.title.slice(7)}`)
      expect(shown).toEqual([
        `${plus(-5)} 19:00 weekly den meeting`,
        `${plus(0)} all day all-day service`,
        `${plus(1)} 20:00 late campfire`,
        `${plus(2)} all day all-day hike`,
        `${plus(2)} 19:00 weekly den meeting`,
        `${plus(3)} 09:00 morning swim`,
      ])
    } finally {
      await zone(null)
    }
  })

  it('checks credentials: anonymous 401, member 403, break-glass 200', async () => {
    expect((await s.req('GET', '/api/admin/calendar')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/calendar', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/calendar', { token: ADMIN_TOKEN })).status).toBe(200)
  })
})

describe('PUT and DELETE /api/admin/calendar/:uid', () => {
  it('replaces an event the site created (200) and logs calendar.update', async () => {
    const { body } = await create({ title: 'Hike', date: upcoming(4, 1), unit: 'both' })
    const res = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(body.uid)}`, {
      cookie: leader.cookie,
      json: { title: 'Long hike', date: addDays(upcoming(4, 1), 1), time: '08:00', end_time: '15:00', unit: 'troop' },
    })
    expect(res.status).toBe(200)
    const { event } = await stored(body.uid)
    expect(event.getFirstPropertyValue('summary')).toBe('Long hike')
    expect(event.getFirstPropertyValue('x-site-unit')).toBe('troop')
    expect((await s.db.selectFrom('action_log').select('kind').where('kind', '=', 'calendar.update').execute()).length).toBeGreaterThan(0)
  })

  it("answers 403 for another client's event on PUT and DELETE without sending anything to the store", async () => {
    const before = await stored('committee@other-client').catch(() => null)
    const put = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent('committee@other-client')}`, {
      cookie: leader.cookie,
      json: { title: 'Hijack', date: upcoming(3) },
    })
    expect(put.status).toBe(403)
    const del = await s.req('DELETE', `/api/admin/calendar/${encodeURIComponent('committee@other-client')}`, { cookie: leader.cookie })
    expect(del.status).toBe(403)
    const after = await stored('committee@other-client').catch(() => null)
    expect(after?.etag).toBe(before?.etag)
    // Not even a request: with the store gone, the answer is still 403, not 502.
    await withServer({ CALDAV_URL: 'http://127.0.0.1:1/nowhere/', CALDAV_USERNAME: 'x', CALDAV_PASSWORD: 'y' }, async (offline) => {
      const l = await offline.as(ROLES.packLeader)
      expect((await offline.req('DELETE', '/api/admin/calendar/not-ours@elsewhere', { cookie: l.cookie })).status).toBe(403)
    })
  })

  it('answers 409 when the event was changed in another client meanwhile, and writes nothing over it', async () => {
    const { body } = await create({ title: 'Court of honor', date: upcoming(5), unit: 'troop' })
    const current = await stored(body.uid)
    const changed = await updateCalendarObject({
      calendarObject: {
        url: `${dav.url}${encodeURIComponent(body.uid)}.ics`,
        etag: current.etag,
        data: current.text.replace('Court of honor', 'Court of honor (moved)'),
      },
      headers: dav.auth,
    })
    expect(changed.ok).toBe(true)
    const res = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(body.uid)}`, {
      cookie: leader.cookie,
      json: { title: 'Mine wins?', date: upcoming(5) },
    })
    expect(res.status).toBe(409)
    expect((await stored(body.uid)).event.getFirstPropertyValue('summary')).toBe('Court of honor (moved)')
  })

  it('deletes for real (200), a second delete is 404, and logs calendar.delete', async () => {
    const { body } = await create({ title: 'Cancelled', date: upcoming(6) })
    const path = `/api/admin/calendar/${encodeURIComponent(body.uid)}`
    expect((await s.req('DELETE', path, { cookie: leader.cookie })).status).toBe(200)
    expect((await fetch(`${dav.url}${encodeURIComponent(body.uid)}.ics`, { headers: dav.auth })).status).toBe(404)
    expect((await s.req('DELETE', path, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.db.selectFrom('action_log').select('kind').where('kind', '=', 'calendar.delete').execute()).length).toBe(1)
  })
})

describe('store refusals', () => {
  it('answers 502 with {detail} to a write when the store refuses (wrong password) or is unreachable; a read shows the copy with a plain sentence', async () => {
    const wrong = await startServer({ ...dav.env, CALDAV_PASSWORD: 'wrong' })
    const down = await startServer({ CALDAV_URL: 'http://127.0.0.1:1/nowhere/', CALDAV_USERNAME: 'x', CALDAV_PASSWORD: 'y' })
    try {
      for (const srv of [wrong, down]) {
        const l = await srv.as(ROLES.packLeader)
        const write = await srv.req('POST', '/api/admin/calendar', { cookie: l.cookie, json: { title: 'x', date: upcoming(2) } })
        expect(write.status).toBe(502)
        expect(typeof write.body.detail).toBe('string')
        const list = await srv.req('GET', '/api/admin/calendar', { cookie: l.cookie })
        expect(list.status).toBe(200)
        expect(list.body).toMatchObject({ configured: true, store: 'caldav', events: [], unreachable: { copied_at: null } })
        expect(list.body.unreachable.detail).not.toContain('ECONNREFUSED')
        expect((await srv.db.selectFrom('calendar_uids').select('uid').execute()).length).toBe(0)
      }
    } finally {
      await wrong.stop()
      await down.stop()
    }
  })
})

describe('a local write that fails after the store write', () => {
  /** Makes the action-log entry of `kind` fail, as a full disk would, while `run` runs. */
  async function failing<T>(kind: string, run: () => Promise<T>): Promise<T> {
    await sql
      .raw(`create trigger fail_log before insert on action_log when new.kind = '${kind}' begin select raise(abort, 'disk full'); end`)
      .execute(s.db)
    try {
      return await run()
    } finally {
      await sql`drop trigger fail_log`.execute(s.db)
    }
  }
  /** Sent without the contract check: a 500 is no declared answer, and here it is the point. */
  const send = (method: string, path: string, json?: unknown) =>
    fetch(s.url + path, {
      method,
      headers: { cookie: leader.cookie, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    })
  const inStore = async (uid: string) => (await fetch(`${dav.url}${encodeURIComponent(uid)}.ics`, { headers: dav.auth })).status === 200

  it('undoes the create in the store: no event is left that the site could neither show as its own nor delete', async () => {
    const store = new CalDavStore({ url: dav.url, username: dav.username, password: dav.password })
    const uids = async () => (await store.list()).map((o) => o.uid).sort()
    const before = { store: await uids(), mine: await s.db.selectFrom('calendar_uids').select('uid').execute() }
    const res = await failing('calendar.create', () => send('POST', '/api/admin/calendar', { title: 'Half made', date: upcoming(5) }))
    expect(res.status).toBe(500)
    expect(await uids()).toEqual(before.store)
    expect(await s.db.selectFrom('calendar_uids').select('uid').execute()).toEqual(before.mine)
    const listed = (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events
    expect(listed.some((e: any) => e.title === 'Half made')).toBe(false)
  })

  it('puts a changed event back, and brings a deleted one back, when the change cannot be recorded', async () => {
    const { body } = await create({ title: 'Kept as it was', date: upcoming(5) })
    const path = `/api/admin/calendar/${encodeURIComponent(body.uid)}`
    const put = await failing('calendar.update', () => send('PUT', path, { title: 'Changed', date: upcoming(5) }))
    expect(put.status).toBe(500)
    expect((await stored(body.uid)).event.getFirstPropertyValue('summary')).toBe('Kept as it was')
    const del = await failing('calendar.delete', () => send('DELETE', path))
    expect(del.status).toBe(500)
    expect(await inStore(body.uid)).toBe(true)
    const listed = (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events
    expect(listed.find((e: any) => e.uid === body.uid)).toMatchObject({ title: 'Kept as it was', mine: true })
    expect((await s.req('DELETE', path, { cookie: leader.cookie })).status).toBe(200)
  })
})

describe('GET /api/admin/calendar/:uid', () => {
  const one = (uid: string, cookie = leader.cookie) => s.req('GET', `/api/admin/calendar/${encodeURIComponent(uid)}`, { cookie })
  const listed = async (uid: string) =>
    (await s.req('GET', '/api/admin/calendar', { cookie: leader.cookie })).body.events.filter((e: any) => e.uid === uid)

  it('answers an event as the list shows it, the same shape its creation, its replacement and its deletion answer', async () => {
    const made = await create({ title: 'Read alone', date: upcoming(7), time: '10:00', unit: 'troop', location: 'Hall' })
    const res = await one(made.body.uid)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(made.body)
    expect(res.body).toEqual((await listed(made.body.uid))[0])
    expect(res.body).toMatchObject({ title: 'Read alone', time: '10:00', end_time: '11:30', mine: true, rsvp: false })
    const path = `/api/admin/calendar/${encodeURIComponent(made.body.uid)}`
    const replaced = await s.req('PUT', path, {
      cookie: leader.cookie,
      json: { title: 'Read alone, later', date: upcoming(8), unit: 'troop' },
    })
    expect((await one(made.body.uid)).body).toEqual(replaced.body)
    const deleted = await s.req('DELETE', path, { cookie: leader.cookie })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual(replaced.body)
    expect((await one(made.body.uid)).status).toBe(404)
  })

  it('answers a repeating event by its first day with its rule, which a PUT can send back as it is', async () => {
    const first = addDays(today(), 9)
    const made = await create({
      title: 'Patrol night',
      date: first,
      time: '19:00',
      unit: 'troop',
      repeat: 'weekly',
      repeat_until: addDays(first, 14),
    })
    const res = await one(made.body.uid)
    expect(res.body).toEqual(made.body)
    expect(res.body).toMatchObject({ date: first, first_date: first, recurring: true, repeat: 'weekly', repeat_until: addDays(first, 14) })
    expect(res.body).toEqual((await listed(made.body.uid))[0])
    const { uid, mine, recurring, first_date, ...body } = res.body
    const again = await s.req('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, { cookie: leader.cookie, json: body })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(res.body)
  })

  it("answers another client's event with mine: false; an unknown uid 404; a member 403", async () => {
    const day = upcoming(5, 2)
    await dav.putForeign('read-foreign.ics', ['UID:read-foreign@other-client', `DTSTART;VALUE=DATE:${compact(day)}`, 'SUMMARY:Council day'])
    const res = await one('read-foreign@other-client')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ uid: 'read-foreign@other-client', title: 'Council day', date: day, mine: false })
    expect((await one('no-such-event@nowhere')).status).toBe(404)
    expect((await one('read-foreign@other-client', (await s.as(ROLES.member)).cookie)).status).toBe(403)
  })
})
