// Changes made in the calendar store from another app (a phone) reach the public pages: one small
// request per poll, a rebuild only when the store changed, failures logged once and the last copy kept.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Db } from '../../server/db/client.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { CalDavStore } from '../../server/calendar/caldav-store.ts'
import { CalendarWatch } from '../../server/calendar/watch.ts'
import { addDays, compact, today } from '../dates.ts'
import { expectFoldedWithin75Octets } from '../helpers.ts'
import { type Radicale, startRadicale } from '../radicale.ts'

let dav: Radicale
let dir: string
beforeAll(async () => {
  dav = await startRadicale()
  dir = mkdtempSync(path.join(tmpdir(), 'calendar-watch-'))
})
afterAll(async () => {
  await dav.stop()
  rmSync(dir, { recursive: true, force: true })
})

const foreign = (uid: string, title: string) => [
  `UID:${uid}`,
  `DTSTART:${compact(addDays(today(), 40))}T180000Z`,
  `DTEND:${compact(addDays(today(), 40))}T190000Z`,
  `SUMMARY:${title}`,
]

/** A loopback proxy in front of Radicale that counts requests, can fail, and can hide the store's change tags. */
function proxy() {
  const state = { requests: 0, down: false, hideTags: false }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      state.requests++
      if (state.down) return new Response('down for maintenance', { status: 503 })
      const url = new URL(req.url)
      const res = await fetch(dav.base + url.pathname, { method: req.method, headers: req.headers, body: await req.arrayBuffer() })
      let body = await res.text()
      if (state.hideTags) body = body.replace(/<([\w:]*)(getctag|sync-token)\b[^>]*>[^<]*<\/\1\2>/g, '')
      const headers = new Headers(res.headers)
      for (const h of ['content-length', 'content-encoding']) headers.delete(h) // fetch has decoded the body
      return new Response(body, { status: res.status, headers })
    },
  })
  return { state, url: `http://127.0.0.1:${server.port}${new URL(dav.url).pathname}`, stop: () => server.stop(true) }
}

describe('CalendarWatch', () => {
  let db: Db
  beforeAll(async () => {
    db = await openMigrated(path.join(dir, 'watch.db'))
  })
  afterAll(() => db.destroy())

  for (const hideTags of [false, true])
    it(`asks for a rebuild only when the store changed (${hideTags ? 'a store without change tags: one full read' : 'one PROPFIND'} per poll)`, async () => {
      const p = proxy()
      p.state.hideTags = hideTags
      const changes: string[] = []
      const watch = new CalendarWatch(db, new CalDavStore({ url: p.url, username: dav.username, password: dav.password }), (r) =>
        changes.push(r),
      )
      try {
        await watch.refreshForBuild()
        const before = p.state.requests
        expect(await watch.poll()).toBe('unchanged')
        expect(await watch.poll()).toBe('unchanged')
        // A store without tags costs the tag request and a full read (tsdav lists, then fetches the objects).
        expect(p.state.requests - before).toBe(hideTags ? 6 : 2)
        expect(changes).toEqual([])

        const uid = `phone-${hideTags}@example.org`
        expect(await dav.putForeign(`${uid}.ics`, foreign(uid, 'Added on a phone'))).toBe(201)
        expect(await watch.poll()).toBe('changed')
        expect(changes).toEqual(['calendar changed'])
        await watch.refreshForBuild() // what the site build does first
        expect((await db.selectFrom('calendar_objects').select('uid').execute()).map((r) => r.uid)).toContain(uid)
        expect(await watch.poll()).toBe('unchanged')
        expect(changes.length).toBe(1)
      } finally {
        p.stop()
      }
    })

  it('logs a store failure when it begins and when it ends, keeps the last copy, and rebuilds after a change made meanwhile', async () => {
    const p = proxy()
    const changes: string[] = []
    const log: string[] = []
    const store = new CalDavStore({ url: p.url, username: dav.username, password: dav.password })
    const watch = new CalendarWatch(
      db,
      store,
      (r) => changes.push(r),
      (line) => log.push(line),
    )
    try {
      await watch.refreshForBuild()
      const copy = await db.selectFrom('calendar_objects').select('uid').execute()
      expect(copy.length).toBeGreaterThan(0)
      p.state.down = true
      expect(await watch.poll()).toBe('failed')
      expect(await watch.poll()).toBe('failed')
      expect(await watch.refreshForBuild().catch((e) => e.status)).toBe(502) // a build meanwhile keeps the copy
      expect(await db.selectFrom('calendar_objects').select('uid').execute()).toEqual(copy)
      expect(log.length).toBe(1)
      expect(log[0]).toContain('Calendar store unreachable')
      expect(changes).toEqual([])

      expect(await dav.putForeign('meanwhile.ics', foreign('meanwhile@example.org', 'Added while the site could not see'))).toBe(201)
      p.state.down = false
      expect(await watch.poll()).toBe('changed')
      expect(log).toEqual([log[0], 'Calendar store reachable again'])
    } finally {
      p.stop()
    }
  })
})

describe('the running service', () => {
  it('shows an event put straight into the store (as a phone does) on /calendar/ and /calendar.ics within 90 s, folded at 75 octets', async () => {
    const title = '冬のキャンプ・オーク野営場（寝袋と防寒具を持参、保護者の送迎をお願いします）'.repeat(2)
    const server = Bun.spawn([process.execPath, path.join(import.meta.dir, '..', '..', 'server', 'main.ts')], {
      env: { ...process.env, ...dav.env, DATABASE_PATH: path.join(dir, 'service.db'), PORT: '0', CALDAV_POLL_SECONDS: '1' },
      stdout: 'pipe',
      stderr: 'inherit',
    })
    try {
      const reader = server.stdout.getReader()
      let out = ''
      while (!/port (\d+)/.test(out)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the service ended: ${out}`)
        out += new TextDecoder().decode(value)
      }
      void (async () => {
        while (!(await reader.read()).done); // keep draining so the service never blocks on its output
      })()
      const base = `http://127.0.0.1:${/port (\d+)/.exec(out)![1]}`
      const put = Date.now()
      expect(await dav.putForeign('phone-camp.ics', foreign('phone-camp@example.org', title))).toBe(201)
      while (!(await (await fetch(`${base}/calendar/`)).text()).includes(title)) {
        if (Date.now() - put > 90_000) throw new Error('the event was not on /calendar/ within 90 s')
        await Bun.sleep(200)
      }
      const feed = await fetch(`${base}/calendar.ics`)
      const bytes = new Uint8Array(await feed.arrayBuffer())
      expect(new TextDecoder().decode(bytes).replace(/\r\n /g, '')).toContain(`SUMMARY:${title}`)
      expectFoldedWithin75Octets(bytes)
    } finally {
      server.kill()
      await server.exited
    }
  }, 150_000)
})
