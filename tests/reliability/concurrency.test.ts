// Concurrent writes: announcement revokes (scheduled and live) racing creates, site builds, setting changes and
// another process writing the same database; never a 5xx, and every revoke lands once with its log entry.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import { ADMIN_TOKEN, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'

let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  s = await startServerWithSite({})
  leader = await s.as(ROLES.packLeader)
})
afterAll(() => s.stop())

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString()

/** Another process writing the same database in short transactions, as the CLI or a second tool does. */
function otherWriter(dbPath: string) {
  const script = `
    import { Database } from 'bun:sqlite'
    const db = new Database(${JSON.stringify(dbPath)})
    db.exec('PRAGMA busy_timeout = 5000')
    const write = db.transaction(() => {
      db.query('select count(*) from announcements').get()
      db.query("insert into join_spam (at, address, payload) values (?, 'other-process', '{}')").run(new Date().toISOString())
    })
    for (;;) { write.immediate(); await Bun.sleep(1) }
  `
  return Bun.spawn([process.execPath, '-e', script], { stdout: 'ignore', stderr: 'pipe' })
}

describe('announcement revokes under concurrent writes', () => {
  it('answers 200 then 409 for every revoke, never 5xx, while creates, builds, settings and another process write', async () => {
    const other = otherWriter(path.join(s.dir, 'site.db'))
    const statuses: number[] = []
    const five: string[] = []
    const note = <R extends { status: number; text: string }>(what: string, res: R) => {
      statuses.push(res.status)
      if (res.status >= 500) five.push(`${what}: ${res.status} ${res.text}`)
      return res
    }
    try {
      for (let round = 0; round < 6; round++) {
        // Half scheduled, half live (the live cap refuses some of those with 409, which is fine).
        const created = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            s
              .req('POST', '/api/admin/announcements', {
                cookie: leader.cookie,
                json: { message: `Round ${round} #${i}`, ends_at: inMinutes(600), ...(i % 2 ? { starts_at: inMinutes(60 + i) } : {}) },
              })
              .then((r) => note('create', r)),
          ),
        )
        const ids = created.filter((r) => r.status === 201).map((r) => r.body.id as number)
        const results = await Promise.all([
          ...ids.flatMap((id) => [
            s.req('DELETE', `/api/admin/announcements/${id}`, { cookie: leader.cookie }).then((r) => note('revoke', r)),
            s.req('DELETE', `/api/admin/announcements/${id}`, { token: ADMIN_TOKEN }).then((r) => note('revoke again', r)),
          ]),
          s.req('POST', '/api/admin/site/rebuild', { token: ADMIN_TOKEN }).then((r) => note('rebuild', r)),
          s
            .req('PUT', '/api/admin/settings/announcements.live_cap', { token: ADMIN_TOKEN, json: { value: 2 + (round % 3) } })
            .then((r) => note('setting', r)),
          s.site!.build('racing a revoke'),
        ])
        const revokes = results.slice(0, ids.length * 2) as { status: number }[]
        // Of the two racing revokes of one announcement, exactly one wins.
        for (let i = 0; i < ids.length; i++) expect([revokes[2 * i].status, revokes[2 * i + 1].status].sort()).toEqual([200, 409])
      }
    } finally {
      other.kill()
      await other.exited
    }
    expect(five).toEqual([])
    expect(statuses.every((code) => code < 500)).toBe(true)
    const revoked = await s.db.selectFrom('announcements').select('id').where('revoked_at', 'is not', null).execute()
    const logged = await s.db.selectFrom('action_log').select('id').where('kind', '=', 'announcements.revoke').execute()
    expect(logged.length).toBe(revoked.length)
    await s.site!.settled()
    expect(await s.db.selectFrom('site_builds').select(['ok', 'error']).where('ok', '=', 0).execute()).toEqual([])
  })
})
