// Settings (typed registry, null restores the default) and the action log (filters, paging, CSV).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let owner: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const put = (key: string, json: unknown, cookie = owner.cookie) => s.req('PUT', `/api/admin/settings/${key}`, { cookie, json })
const valueOf = async (key: string) =>
  (await s.req('GET', '/api/admin/settings', { cookie: owner.cookie })).body.settings.find((x: any) => x.key === key).value

describe('GET /api/admin/settings', () => {
  it('lists every setting with key, type, value, default and description', async () => {
    const res = await s.req('GET', '/api/admin/settings', { cookie: owner.cookie })
    expect(res.status).toBe(200)
    const keys = res.body.settings.map((x: any) => x.key)
    for (const k of [
      'api_keys_from',
      'announcements.max_chars',
      'announcements.live_cap',
      'site.timezone',
      'mirrors.spreadsheet_url',
      'socialposts.control_url',
      'socialposts.min_lead_minutes',
      'roster.year_start_month',
    ])
      expect(keys).toContain(k)
    for (const x of res.body.settings) expect(Object.keys(x).sort()).toEqual(['default', 'description', 'key', 'type', 'value'])
    expect(res.body.settings.find((x: any) => x.key === 'api_keys_from')).toMatchObject({ value: 'lan', default: 'lan' })
  })

  it('answers by credential: anonymous 401, member 403, leader 403, admin, owner, break-glass and a scoped key 200', async () => {
    expect((await s.req('GET', '/api/admin/settings')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/settings', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/settings', { cookie: (await s.as(ROLES.packLeader)).cookie })).status).toBe(403)
    const admin = await s.as(ROLES.admin)
    expect((await s.req('GET', '/api/admin/settings', { cookie: admin.cookie })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/settings', { token: ADMIN_TOKEN })).status).toBe(200)
    const scoped = await s.mintKey(admin.cookie, ['settings:write'])
    const unscoped = await s.mintKey(admin.cookie, ['history:read'])
    expect((await s.req('GET', '/api/admin/settings', { key: scoped.key })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/settings', { key: unscoped.key })).status).toBe(403)
  })
})

describe('PUT /api/admin/settings/:key', () => {
  it('stores a good value (200), logs settings.update, and null restores the default', async () => {
    const res = await put('announcements.max_chars', { value: 500 })
    expect(res.status).toBe(200)
    expect(res.body.setting).toMatchObject({ key: 'announcements.max_chars', value: 500, default: 280 })
    expect(await valueOf('announcements.max_chars')).toBe(500)
    expect((await put('site.timezone', { value: 'Europe/London' })).status).toBe(200)
    expect((await put('mirrors.spreadsheet_url', { value: 'https://script.example/exec' })).status).toBe(200)
    expect((await put('announcements.max_chars', { value: null })).status).toBe(200)
    expect(await valueOf('announcements.max_chars')).toBe(280)
    const log = await s.db
      .selectFrom('action_log')
      .selectAll()
      .where('kind', '=', 'settings.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(log.actor).toBe(owner.email)
    expect(log.summary).toContain('announcements.max_chars')
  })

  it('answers 422 for a bad value of each setting and changes nothing', async () => {
    const bad: [string, unknown][] = [
      ['api_keys_from', 'everywhere'],
      ['announcements.max_chars', 0],
      ['announcements.max_chars', '280'],
      ['announcements.live_cap', 2.5],
      ['site.timezone', 'Mars/Olympus'],
      ['mirrors.spreadsheet_url', 'ftp://x.example'],
      ['socialposts.control_url', 'not a url'],
      ['socialposts.min_lead_minutes', -1],
      ['roster.year_start_month', 13],
    ]
    const logs = (await s.db.selectFrom('action_log').select('id').execute()).length
    for (const [key, value] of bad) {
      const before = await valueOf(key)
      const res = await put(key, { value })
      expect(res.status, `${key} = ${JSON.stringify(value)}`).toBe(422)
      expect(res.body.detail).toContain('value')
      expect(await valueOf(key)).toEqual(before)
    }
    expect((await s.db.selectFrom('action_log').select('id').execute()).length).toBe(logs)
  })

  it('answers 422 for an unknown key, a missing value and an extra field', async () => {
    expect((await put('no.such.setting', { value: 1 })).status).toBe(422)
    expect((await put('announcements.live_cap', {})).status).toBe(422)
    expect((await put('announcements.live_cap', { value: 3, also: 1 })).status).toBe(422)
  })

  it('answers 403 to a leader', async () => {
    expect((await put('announcements.live_cap', { value: 4 }, (await s.as(ROLES.troopLeader)).cookie)).status).toBe(403)
  })
})

describe('GET /api/admin/history', () => {
  it('answers by credential: anonymous 401, member 403, leader 403, admin, owner and break-glass 200', async () => {
    expect((await s.req('GET', '/api/admin/history')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/history', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/history', { cookie: (await s.as(ROLES.packLeader)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/history', { cookie: (await s.as(ROLES.admin)).cookie })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/history', { cookie: owner.cookie })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/history', { token: ADMIN_TOKEN })).status).toBe(200)
  })

  it('answers newest first with {id, at, kind, actor, summary}, filtered by kind prefix and actor', async () => {
    const res = await s.req('GET', '/api/admin/history?limit=500', { cookie: owner.cookie })
    const entries = res.body.entries
    expect(Object.keys(entries[0]).sort()).toEqual(['actor', 'at', 'id', 'kind', 'summary'])
    for (let i = 1; i < entries.length; i++) expect(entries[i - 1].at >= entries[i].at).toBe(true)
    const login = await s.req('GET', '/api/admin/history?kind=login&limit=500', { cookie: owner.cookie })
    expect(login.body.entries.length).toBeGreaterThan(0)
    for (const e of login.body.entries) expect(e.kind.startsWith('login')).toBe(true)
    const mine = await s.req('GET', `/api/admin/history?actor=${encodeURIComponent(owner.email)}&limit=500`, { cookie: owner.cookie })
    for (const e of mine.body.entries) expect(e.actor).toBe(owner.email)
    const none = await s.req('GET', '/api/admin/history?kind=%25', { cookie: owner.cookie })
    expect(none.body.entries).toEqual([])
  })

  it('pages with before and the next cursor through entries sharing one timestamp, each exactly once', async () => {
    const at = '2020-01-01T00:00:00.000Z'
    await s.db
      .insertInto('action_log')
      .values(Array.from({ length: 7 }, (_, i) => ({ at, kind: 'paging.test', actor: 'test', summary: `entry ${i}` })))
      .execute()
    const seen: string[] = []
    let query = '/api/admin/history?kind=paging.&limit=3'
    for (let page = 0; page < 5; page++) {
      const res = await s.req('GET', query, { cookie: owner.cookie })
      seen.push(...res.body.entries.map((e: any) => e.summary))
      if (!res.body.next) break
      query = `/api/admin/history?kind=paging.&limit=3&before=${encodeURIComponent(res.body.next.before)}&before_id=${res.body.next.before_id}`
    }
    expect(seen.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `entry ${i}`))
    const older = await s.req('GET', `/api/admin/history?before=2020-01-01T00:00:00.001Z&kind=paging.`, { cookie: owner.cookie })
    expect(older.body.entries.length).toBe(7)
  })

  it('answers 422 for a bad before or limit', async () => {
    expect((await s.req('GET', '/api/admin/history?before=yesterday', { cookie: owner.cookie })).status).toBe(422)
    expect((await s.req('GET', '/api/admin/history?limit=0', { cookie: owner.cookie })).status).toBe(422)
    expect((await s.req('GET', '/api/admin/history?limit=501', { cookie: owner.cookie })).status).toBe(422)
  })
})

describe('GET /api/admin/history/export', () => {
  it('downloads the filtered log as CSV with formulas defused; leader 403', async () => {
    await s.db
      .insertInto('action_log')
      .values({ at: new Date().toISOString(), kind: 'csv.test', actor: 'test', summary: '=HYPERLINK("x")' })
      .execute()
    const res = await s.req('GET', '/api/admin/history/export?kind=csv.', { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('content-disposition')).toContain('attachment')
    const lines = res.text.trim().split('\r\n')
    expect(lines[0]).toBe('id,at,kind,actor,summary')
    expect(lines.length).toBe(2)
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`)
    expect((await s.req('GET', '/api/admin/history/export', { cookie: (await s.as(ROLES.packLeader)).cookie })).status).toBe(403)
  })
})
