// The calendar with nothing to set up: without CALDAV_* the site keeps events itself (store "site"), with replies; the
// move into a newly configured CalDAV collection (real Radicale) keeps uids and replies; a CalDAV store that stops
// answering leaves the last good copy on the admin calendar with a plain sentence, and writes 502.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { startRadicale } from '../radicale.ts'
import { SiteStore } from '../../server/calendar/site-store.ts'
import { CalDavStore } from '../../server/calendar/caldav-store.ts'
import { addDays, today } from '../dates.ts'

const soon = (days: number) => addDays(today(), days)

let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
})
afterAll(() => s.stop())

const root = path.join(import.meta.dir, '../..')
const events = async (srv: TestServer, cookie: string) => (await srv.req('GET', '/api/admin/calendar', { cookie })).body
const eventPath = (uid: string) => `/api/admin/calendar/${encodeURIComponent(uid)}`

/** A family account linked to a new household of the pack. */
async function family(srv: TestServer, leaderCookie: string, parent_name: string) {
  const admin = await srv.as(ROLES.admin)
  const person = await srv.as(ROLES.member)
  const h = await srv.req('POST', '/api/admin/roster/households', { cookie: leaderCookie, json: { parent_name } })
  expect(h.status).toBe(201)
  const linked = await srv.req('PUT', `/api/admin/roster/households/${h.body.id}/people`, {
    cookie: admin.cookie,
    json: { person_ids: [person.id] },
  })
  expect(linked.status).toBe(200)
  return { ...person, household: h.body.id as number }
}

describe('the calendar the site keeps itself (no CALDAV_*)', () => {
  it('works on a fresh install: configured, store "site"; create, list as mine, replace, delete, a second delete 404; each logged', async () => {
    expect(await events(s, leader.cookie)).toEqual({ configured: true, store: 'site', events: [], deleted_with_replies: [] })
    const made = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Pinewood derby', date: soon(10), time: '10:00', unit: 'pack', location: 'School gym' },
    })
    expect(made.status).toBe(201)
    expect((await s.lastLog('calendar.create')).summary).toStartWith('“Pinewood derby”')
    const listed = (await events(s, leader.cookie)).events
    expect(listed).toEqual([expect.objectContaining({ uid: made.body.uid, title: 'Pinewood derby', mine: true, time: '10:00' })])
    const row = await s.db.selectFrom('calendar_site_events').select('ics').where('uid', '=', made.body.uid).executeTakeFirstOrThrow()
    expect(row.ics).toContain('SUMMARY:Pinewood derby')

    const put = await s.req('PUT', eventPath(made.body.uid), {
      cookie: leader.cookie,
      json: { title: 'Pinewood derby finals', date: soon(11), unit: 'pack' },
    })
    expect(put.status).toBe(200)
    expect((await events(s, leader.cookie)).events).toEqual([
      expect.objectContaining({ title: 'Pinewood derby finals', date: soon(11), mine: true }),
    ])
    expect((await s.lastLog('calendar.update')).summary).toStartWith('“Pinewood derby finals”')

    expect((await s.req('DELETE', eventPath(made.body.uid), { cookie: leader.cookie })).status).toBe(200)
    expect((await s.lastLog('calendar.delete')).summary).toStartWith('“Pinewood derby finals”')
    expect((await s.req('DELETE', eventPath(made.body.uid), { cookie: leader.cookie })).status).toBe(404)
    expect((await events(s, leader.cookie)).events).toEqual([])
    expect(await s.db.selectFrom('calendar_site_events').selectAll().execute()).toEqual([])
  })

  it('refuses a stale change (409) and a gone event (404) as a collection would', async () => {
    const store = new SiteStore(s.db)
    const uid = 'stale-test@scouting-units-site'
    await store.create(uid, 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n')
    const [{ etag }] = (await store.list()).filter((o) => o.uid === uid)
    await store.update(store.urlFor(uid), etag, 'BEGIN:VCALENDAR\r\nX-CHANGED:1\r\nEND:VCALENDAR\r\n')
    await expect(store.update(store.urlFor(uid), etag, 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n')).rejects.toMatchObject({ status: 409 })
    await expect(store.remove(store.urlFor(uid), etag)).rejects.toMatchObject({ status: 409 })
    await store.remove(store.urlFor(uid), null)
    await expect(store.remove(store.urlFor(uid), null)).rejects.toMatchObject({ status: 404 })
  })

  it('keeps an event and its action-log entry together: when the entry cannot be written, no event is left', async () => {
    const mine = await s.db.selectFrom('calendar_uids').selectAll().execute()
    await sql`create trigger fail_log before insert on action_log when new.kind = 'calendar.create' begin select raise(abort, 'disk full'); end`.execute(
      s.db,
    )
    try {
      const res = await fetch(s.url + '/api/admin/calendar', {
        method: 'POST',
        headers: { cookie: leader.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Half made', date: soon(5) }),
      })
      expect(res.status).toBe(500)
    } finally {
      await sql`drop trigger fail_log`.execute(s.db)
    }
    expect(await s.db.selectFrom('calendar_site_events').selectAll().execute()).toEqual([])
    expect(await s.db.selectFrom('calendar_uids').selectAll().execute()).toEqual(mine)
  })

  it('takes replies from families on a fresh install', async () => {
    const made = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Holiday party', date: soon(12), time: '18:00', unit: 'pack', rsvp: true },
    })
    const rivera = await family(s, leader.cookie, 'Dana Rivera')
    const reply = await s.req('PUT', `${eventPath(made.body.uid)}/rsvps`, {
      cookie: rivera.cookie,
      json: { answer: 'yes', adults: 1, scouts: 2 },
    })
    expect(reply.status).toBe(200)
    const shown = (await events(s, leader.cookie)).events.find((e: any) => e.uid === made.body.uid)
    expect(shown).toMatchObject({ rsvp: true, replies: { yes: { households: 1, adults: 1, scouts: 2 } } })
    expect((await s.req('DELETE', eventPath(made.body.uid), { cookie: leader.cookie })).status).toBe(200)
  })
})

describe('bun server/cli.ts calendar-move-to-store', () => {
  const cli = (dbPath: string, vars: Record<string, string>) => {
    const proc = Bun.spawnSync([process.execPath, 'server/cli.ts', 'calendar-move-to-store'], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: dbPath, ...vars },
    })
    return { code: proc.exitCode, out: proc.stdout.toString() + proc.stderr.toString() }
  }

  it('says what to set, and exits 1, without a CalDAV collection', () => {
    const res = cli(path.join(s.dir, 'site.db'), { CALDAV_URL: '', CALDAV_USERNAME: '', CALDAV_PASSWORD: '' })
    expect(res.code).toBe(1)
    expect(res.out).toContain('set CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD')
  })

  it('copies the site’s events into Radicale with their uids and replies, says what it moved, and a rerun has nothing to move', async () => {
    const dav = await startRadicale()
    // The database outlives the first service (a test server removes its own directory when it stops).
    const dir = mkdtempSync(path.join(tmpdir(), 'calendar-move-'))
    const dbPath = path.join(dir, 'site.db')
    const own = await startServer({ DATABASE_PATH: dbPath })
    try {
      const ownLeader = await own.as(ROLES.packLeader)
      const camp = await own.req('POST', '/api/admin/calendar', {
        cookie: ownLeader.cookie,
        json: { title: 'Winter campout', date: soon(20), unit: 'pack', rsvp: true },
      })
      const hike = await own.req('POST', '/api/admin/calendar', {
        cookie: ownLeader.cookie,
        json: { title: 'Hike', date: soon(21), time: '09:00', unit: 'both' },
      })
      const rivera = await family(own, ownLeader.cookie, 'Dana Rivera')
      const reply = await own.req('PUT', `${eventPath(camp.body.uid)}/rsvps`, {
        cookie: rivera.cookie,
        json: { answer: 'yes', adults: 1, scouts: 1 },
      })
      expect(reply.status).toBe(200)

      const moved = cli(dbPath, dav.env)
      expect(moved.code).toBe(0)
      expect(moved.out).toContain('Moved 2 events to')
      expect(moved.out).toContain('“Winter campout”')
      expect(moved.out).toContain('“Hike”')
      const inDav = (await new CalDavStore(dav).list()).map((o) => o.uid).sort()
      expect(inDav).toEqual([camp.body.uid, hike.body.uid].sort())
      expect((await own.lastLog('calendar.move')).summary).toContain('moved to the CalDAV collection')

      const again = cli(dbPath, dav.env)
      expect(again.code).toBe(0)
      expect(again.out).toContain('Nothing to move')
      await own.stop()

      // The service restarted with the collection: the same events, still the site's, with their replies.
      const moved2 = await startServer({ ...dav.env, DATABASE_PATH: dbPath })
      try {
        const l = await moved2.as(ROLES.packLeader)
        const list = await events(moved2, l.cookie)
        expect(list.store).toBe('caldav')
        const campShown = list.events.find((e: any) => e.uid === camp.body.uid)
        expect(campShown).toMatchObject({ title: 'Winter campout', mine: true, rsvp: true, replies: { yes: { households: 1 } } })
        expect(list.events.find((e: any) => e.uid === hike.body.uid)).toMatchObject({ mine: true })
        expect((await moved2.req('DELETE', eventPath(hike.body.uid), { cookie: l.cookie })).status).toBe(200)
        expect((await new CalDavStore(dav).list()).map((o) => o.uid)).toEqual([camp.body.uid])
      } finally {
        await moved2.stop()
      }
    } finally {
      await own.stop().catch(() => {})
      await dav.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a CalDAV store that stops answering', () => {
  it('leaves the last good copy on the admin calendar with a plain sentence, never the raw error; writes answer 502', async () => {
    const dav = await startRadicale()
    const srv = await startServer(dav.env)
    try {
      const l = await srv.as(ROLES.troopLeader)
      const made = await srv.req('POST', '/api/admin/calendar', {
        cookie: l.cookie,
        json: { title: 'Court of honor', date: soon(9), time: '19:00', unit: 'troop' },
      })
      expect(made.status).toBe(201)
      expect((await events(srv, l.cookie)).unreachable).toBeUndefined()
      await dav.stop()

      const list = await events(srv, l.cookie)
      expect(list).toMatchObject({
        configured: true,
        store: 'caldav',
        unreachable: { detail: 'The calendar server is not answering; changes will be possible again when it is.' },
      })
      expect(Date.parse(list.unreachable.copied_at)).toBeGreaterThan(Date.now() - 60_000)
      expect(list.events).toEqual([expect.objectContaining({ uid: made.body.uid, title: 'Court of honor', mine: true })])
      const put = await srv.req('PUT', eventPath(made.body.uid), {
        cookie: l.cookie,
        json: { title: 'Court of honor', date: soon(9), unit: 'troop' },
      })
      expect(put.status).toBe(502)
      const post = await srv.req('POST', '/api/admin/calendar', { cookie: l.cookie, json: { title: 'x', date: soon(3) } })
      expect(post.status).toBe(502)
    } finally {
      await srv.stop()
    }
  })
})
