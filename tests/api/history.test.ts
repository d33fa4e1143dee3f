// History API: the action log newest first, kind/actor filters, tie-safe paging, CSV export, credentials and sign-in logging.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, PASSWORD, startServer, type TestServer } from '../helpers.ts'
import { walkPages } from '../paging.ts'
import { encodeCursor } from '../../server/http/paging.ts'
import { record } from '../../server/db/write.ts'

let s: TestServer
let owner: { id: number; email: string; cookie: string }
let admin: { id: number; email: string; cookie: string }
let member: { cookie: string }
let leader: { cookie: string }

// Rows inserted directly, several sharing one timestamp, to test the tie-break of paging.
const TIES = [
  ...Array.from({ length: 3 }, () => '2021-03-01T10:00:00.000Z'),
  ...Array.from({ length: 5 }, () => '2021-03-01T09:00:00.000Z'),
  '2021-03-01T08:00:00.000Z',
  ...Array.from({ length: 4 }, () => '2021-03-01T07:00:00.000Z'),
]

beforeAll(async () => {
  s = await startServer()
  ;({ owner, admin, member, troopLeader: leader } = await s.asEveryRole())
  // keys.mint and keys.revoke entries.
  const { id } = await s.mintKey(admin.cookie, ['leads:read'])
  expect((await s.req('DELETE', `/api/admin/keys/${id}`, { cookie: admin.cookie })).status).toBe(200)
  // A login.failure entry.
  expect((await s.req('POST', '/login', { json: { email: admin.email, password: 'wrong password!' } })).status).toBe(401)
  // Entries sharing timestamps, inserted in shuffled order so id order and time order differ.
  const order = [4, 0, 12, 7, 2, 9, 5, 11, 1, 8, 3, 10, 6]
  for (const i of order)
    await s.db
      .insertInto('action_log')
      .values({ at: TIES[i], kind: 'tie.test', actor: 'tester', summary: `tie ${i}` })
      .execute()
  await s.db
    .insertInto('action_log')
    .values([
      { at: '2020-05-05T00:00:00.000Z', kind: 'csv.test', actor: 'csv', summary: '=HYPERLINK("http://evil.example","x")' },
      { at: '2020-05-05T00:00:01.000Z', kind: 'csv.test', actor: 'csv', summary: '+1+2' },
      { at: '2020-05-05T00:00:02.000Z', kind: 'csv.test', actor: 'csv', summary: '-3' },
      { at: '2020-05-05T00:00:03.000Z', kind: 'csv.test', actor: '@actor', summary: '@SUM(A1)' },
      { at: '2020-05-05T00:00:04.000Z', kind: 'csv.test', actor: 'csv', summary: 'plain, with "quotes"' },
    ])
    .execute()
})
afterAll(() => s.stop())

const history = (query = '', cookie = owner.cookie) => s.req('GET', `/api/admin/history${query}`, { cookie })

/** Walks every page of a query with the older `next` (before and before_id); returns the ids in order. */
async function walk(filter: string, limit: number): Promise<number[]> {
  const ids: number[] = []
  let cursor = ''
  for (let page = 0; page < 1000; page++) {
    const res = await history(`?limit=${limit}${filter}${cursor}`)
    expect(res.status).toBe(200)
    expect(res.body.entries.length).toBeLessThanOrEqual(limit)
    ids.push(...res.body.entries.map((e: any) => e.id))
    if (!res.body.next) return ids
    expect(res.body.entries.length).toBe(limit)
    const last = res.body.entries.at(-1)
    expect(res.body.next.before).toBe(last.at)
    expect(res.body.next.before_id).toBe(last.id)
    cursor = `&before=${encodeURIComponent(res.body.next.before)}&before_id=${res.body.next.before_id}`
  }
  throw new Error('paging did not end')
}

describe('GET /api/admin/history', () => {
  it('answers newest first, entries with exactly {id, at, kind, actor, summary}', async () => {
    const res = await history('?limit=500')
    expect(res.status).toBe(200)
    const entries = res.body.entries
    expect(entries.length).toBeGreaterThan(TIES.length + 5)
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(['actor', 'at', 'id', 'kind', 'summary'])
      expect(typeof e.id).toBe('number')
      expect(Number.isNaN(Date.parse(e.at))).toBe(false)
      for (const f of ['at', 'kind', 'actor', 'summary']) expect(typeof e[f]).toBe('string')
    }
    for (let i = 1; i < entries.length; i++) {
      const [a, b] = [entries[i - 1], entries[i]]
      expect(a.id > b.id).toBe(true) // the order they were written in, whatever their `at` says
    }
    expect(entries.at(-1).id).toBe(1) // the first thing written, though rows inserted later say 2020
    expect(res.body.next).toBeNull()
  })

  it('answers 50 entries by default', async () => {
    for (let i = 0; i < 60; i++)
      await s.db
        .insertInto('action_log')
        .values({ at: '2019-01-01T00:00:00.000Z', kind: 'bulk.test', actor: 'bulk', summary: `b${i}` })
        .execute()
    const res = await history('?kind=bulk.')
    expect(res.status).toBe(200)
    expect(res.body.entries).toHaveLength(50)
    expect(res.body.next).not.toBeNull()
  })

  it('filters by kind prefix: keys. matches keys.mint and keys.revoke, login matches login.success and login.failure', async () => {
    const keys = await history('?kind=keys.&limit=500')
    expect(keys.status).toBe(200)
    const keyKinds = new Set(keys.body.entries.map((e: any) => e.kind))
    expect([...keyKinds].sort()).toEqual(['keys.mint', 'keys.revoke'])

    const login = await history('?kind=login&limit=500')
    expect(login.status).toBe(200)
    const loginKinds = new Set(login.body.entries.map((e: any) => e.kind))
    expect([...loginKinds].sort()).toEqual(['login.failure', 'login.success'])

    const exact = await history('?kind=keys.mint&limit=500')
    expect(exact.body.entries.length).toBeGreaterThan(0)
    for (const e of exact.body.entries) expect(e.kind).toBe('keys.mint')

    // A prefix, not a substring or a pattern.
    expect((await history('?kind=eys.')).body.entries).toEqual([])
    expect((await history('?kind=%25')).body.entries).toEqual([])
    expect((await history('?kind=keys_')).body.entries).toEqual([])
  })

  it('filters by exact actor', async () => {
    const res = await history(`?actor=${encodeURIComponent(admin.email)}&limit=500`)
    expect(res.status).toBe(200)
    const kinds = res.body.entries.map((e: any) => e.kind)
    expect(kinds).toContain('keys.mint')
    expect(kinds).toContain('keys.revoke')
    expect(kinds).toContain('login.success')
    for (const e of res.body.entries) expect(e.actor).toBe(admin.email)
    expect((await history(`?actor=${encodeURIComponent(admin.email.slice(0, -1))}`)).body.entries).toEqual([])
    expect((await history(`?actor=${encodeURIComponent(admin.email.toUpperCase())}`)).body.entries).toEqual([])
    const both = await history(`?actor=tester&kind=tie.`)
    expect(both.body.entries).toHaveLength(TIES.length)
  })

  it('walks every entry exactly once with before, limit and next, also across shared timestamps', async () => {
    const all = (await history('?limit=500')).body.entries.map((e: any) => e.id)
    for (const limit of [1, 2, 3, 4, 7]) {
      const ids = await walk('&kind=tie.', limit)
      expect(ids).toHaveLength(TIES.length)
      expect(new Set(ids).size).toBe(TIES.length)
    }
    for (const limit of [2, 5, 13]) {
      const ids = await walk('', limit)
      expect(ids).toEqual(all)
    }
  })

  it('walks every entry exactly once with limit and cursor, also across shared timestamps and with entries added', async () => {
    const all = (await history('?limit=1000')).body.entries.map((e: any) => e.id)
    const get = (path: string) => s.req('GET', path, { cookie: owner.cookie })
    const ids = (body: any) => body.entries.map((e: any) => e.id)
    const ties = (await history('?kind=tie.')).body.entries.map((e: any) => e.id)
    expect(ties).toHaveLength(TIES.length)
    for (const limit of [1, 3, 4]) expect(await walkPages(get, '/api/admin/history?kind=tie.', limit, ids)).toEqual(ties)
    // New entries land at the top, before the cursor: the walk neither repeats nor loses a row.
    const added = async () => {
      await s.db
        .insertInto('action_log')
        .values({ at: new Date().toISOString(), kind: 'walk.added', actor: 'tester', summary: 'added during a walk' })
        .execute()
    }
    expect(await walkPages(get, '/api/admin/history', 7, ids, added)).toEqual(all)
  })

  it('refuses a cursor used with other filters (cursor_mismatch) or not one it gave (cursor_invalid)', async () => {
    const first = await history('?kind=tie.&limit=2')
    const cursor = encodeURIComponent(first.body.next_cursor)
    expect((await history(`?kind=tie.&limit=5&cursor=${cursor}`)).status).toBe(200) // another limit is fine
    const other = await history(`?kind=keys.&cursor=${cursor}`)
    expectDetail(other, 422)
    expect(other.body.code).toBe('cursor_mismatch')
    // Not base64 JSON, not a position, or a position of the wrong shape for this list.
    const forged = [encodeCursor('history', { kind: 'tie.' }, ['yesterday', 3]), encodeCursor('history', { kind: 'tie.' }, [3])]
    for (const bad of ['garbage', 'eyJwIjoxfQ', ...forged]) {
      const res = await history(`?kind=tie.&cursor=${bad}`)
      expectDetail(res, 422)
      expect(res.body.code, bad).toBe('cursor_invalid')
    }
  })

  it('filters with before alone as "strictly older than"; with before_id the id alone decides', async () => {
    const res = await history(`?kind=tie.&before=${encodeURIComponent('2021-03-01T09:00:00.000Z')}`)
    expect(res.status).toBe(200)
    expect(
      res.body.entries
        .map((e: any) => e.at)
        .sort()
        .reverse(),
    ).toEqual(TIES.filter((at) => at < '2021-03-01T09:00:00.000Z'))
    const all = (await history('?kind=tie.')).body.entries.map((e: any) => e.id)
    const tied = await history(`?kind=tie.&before=2021-03-01T09:00:00.000Z&before_id=${all[4]}`)
    expect(tied.status).toBe(200)
    expect(tied.body.entries.map((e: any) => e.id)).toEqual(all.slice(5))
  })

  it('lists entries in the order they were written after the clock was set back, in every paging and the CSV', async () => {
    const summaries = ['before the clock went back', 'after it went back', 'later still']
    const ids = [await record(s.db, 'clock', 'demo.seed', summaries[0])]
    setSystemTime(new Date(Date.now() - 2 * 3_600_000))
    try {
      for (const summary of summaries.slice(1)) ids.push(await record(s.db, 'clock', 'demo.seed', summary))
    } finally {
      setSystemTime()
    }
    const newestFirst = [...ids].reverse()
    const res = await history('?actor=clock')
    expect(res.body.entries.map((e: any) => e.summary)).toEqual([...summaries].reverse())
    expect(res.body.entries.map((e: any) => e.id)).toEqual(newestFirst)
    expect(res.body.entries[0].at < res.body.entries[2].at).toBe(true) // the clock did go back
    const get = (path: string) => s.req('GET', path, { cookie: owner.cookie })
    for (const limit of [1, 2]) {
      expect(await walkPages(get, '/api/admin/history?actor=clock', limit, (b) => b.entries.map((e: any) => e.id))).toEqual(newestFirst)
      expect(await walk('&actor=clock', limit)).toEqual(newestFirst)
    }
    const csv = await get('/api/admin/history/export?actor=clock')
    expect(
      csv.text
        .split(/\r?\n/)
        .slice(1, 4)
        .map((line) => Number(line.split(',')[0].replaceAll('"', ''))),
    ).toEqual(newestFirst)
  })

  it('answers 422 for a bad before and for limit 0 or 1001', async () => {
    expectDetail(await history('?before=yesterday'), 422)
    expectDetail(await history('?before=2021-13-45T00:00:00Z'), 422)
    for (const impossible of ['2027-02-30T10:00:00Z', '2027-04-31T10:00:00Z', '2026-12-05T24:00:00Z', '2026-12-05T18:00:00']) {
      const res = await history(`?before=${impossible}`)
      expectDetail(res, 422)
      expect(res.body.detail, impossible).toContain('before: must be a real date and time in RFC 3339, e.g. 2026-12-05T18:00:00Z')
    }
    expectDetail(await history('?since=2027-02-30T10:00:00Z'), 422)
    // Lowercase t and z, and an offset, name the same moment as the log's own form.
    const lower = await history(`?kind=tie.&before=2021-03-01t09:00:00z`)
    const offset = await history(`?kind=tie.&before=${encodeURIComponent('2021-03-01T03:00:00-06:00')}`)
    expect(lower.status).toBe(200)
    expect(
      lower.body.entries
        .map((e: any) => e.at)
        .sort()
        .reverse(),
    ).toEqual(TIES.filter((at) => at < '2021-03-01T09:00:00.000Z'))
    expect(offset.body.entries).toEqual(lower.body.entries)
    expectDetail(await history('?limit=0'), 422)
    expectDetail(await history('?limit=1001'), 422)
    expectDetail(await history('?limit=ten'), 422)
    expect((await history('?limit=1000')).status).toBe(200)
    expect((await history('?limit=1')).body.entries).toHaveLength(1)
  })

  it('answers 401 anonymous, 403 member and leader, 200 admin, owner and break-glass', async () => {
    expectDetail(await s.req('GET', '/api/admin/history'), 401)
    expectDetail(await history('', member.cookie), 403)
    expectDetail(await history('', leader.cookie), 403)
    expect((await history('', admin.cookie)).status).toBe(200)
    expect((await history('', owner.cookie)).status).toBe(200)
    const byToken = await s.req('GET', '/api/admin/history', { token: ADMIN_TOKEN })
    expect(byToken.status).toBe(200)
    expect(Array.isArray(byToken.body.entries)).toBe(true)
  })

  it('answers 200 to a key with history:read and 403 to a key without it', async () => {
    const scoped = await s.mintKey(admin.cookie, ['history:read'])
    const unscoped = await s.mintKey(admin.cookie, ['settings:write'])
    expect((await s.req('GET', '/api/admin/history', { key: scoped.key })).status).toBe(200)
    expectDetail(await s.req('GET', '/api/admin/history', { key: unscoped.key }), 403)
  })

  it('logs a sign-in as login.success with the email as actor, and a wrong password as login.failure', async () => {
    const p = await s.person({})
    const failures = async () => (await history(`?kind=login.failure&limit=500`)).body.entries.length
    const before = await failures()
    const wrong = await s.req('POST', '/login', { json: { email: p.email, password: PASSWORD + 'x' } })
    expectDetail(wrong, 401)
    expect(await failures()).toBe(before + 1)
    const failure = (await history('?kind=login.failure&limit=1')).body.entries[0]
    expect(failure.kind).toBe('login.failure')
    expect(failure.summary).toContain(p.email)
    expect(failure.actor).not.toBe(p.email)

    await s.signIn(p.email)
    const success = (await history(`?kind=login.success&actor=${encodeURIComponent(p.email)}`)).body.entries
    expect(success).toHaveLength(1)
    expect(success[0]).toMatchObject({ kind: 'login.success', actor: p.email })
  })
})

describe('GET /api/admin/history/export', () => {
  const exportCsv = (query = '', o: Parameters<TestServer['req']>[2] = { cookie: owner.cookie }) =>
    s.req('GET', `/api/admin/history/export${query}`, o)

  it('streams a long log in batches: every entry once, newest first, however many there are', async () => {
    const at = new Date(Date.now() - 86_400_000).toISOString() // 2,500 entries sharing one instant cross batch edges by id
    for (let i = 0; i < 2500; i += 500)
      await s.db
        .insertInto('action_log')
        .values(Array.from({ length: 500 }, (_, j) => ({ at, kind: 'stream.test', actor: 'tester', summary: `entry ${i + j}` })))
        .execute()
    const res = await exportCsv('?kind=stream.')
    expect(res.status).toBe(200)
    const ids = res.text
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(',')[0].replaceAll('"', '')))
    expect(ids.length).toBe(2500)
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1])).toBe(true)
  })

  it('answers text/csv with the header id,at,kind,actor,summary and the same filters', async () => {
    const res = await exportCsv('?kind=tie.')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/csv')
    const lines = res.text.split(/\r?\n/).filter((l) => l !== '')
    expect(lines[0]).toBe('id,at,kind,actor,summary')
    expect(lines).toHaveLength(1 + TIES.length)
    const json = (await history('?kind=tie.&limit=500')).body.entries
    for (const [i, e] of json.entries()) expect(lines[i + 1]).toBe(`"${e.id}","${e.at}","tie.test","tester","${e.summary}"`)

    const byActor = await exportCsv(`?actor=${encodeURIComponent(admin.email)}&kind=keys.`)
    const actorLines = byActor.text.split(/\r?\n/).filter((l) => l !== '')
    const actorJson = (await history(`?actor=${encodeURIComponent(admin.email)}&kind=keys.&limit=500`)).body.entries
    expect(actorJson.length).toBeGreaterThanOrEqual(2)
    expect(actorLines).toHaveLength(1 + actorJson.length)
    for (const line of actorLines.slice(1)) expect(line).toContain(`"${admin.email}"`)

    const older = await exportCsv(`?kind=tie.&before=${encodeURIComponent('2021-03-01T08:00:00.000Z')}`)
    expect(older.text.split(/\r?\n/).filter((l) => l !== '')).toHaveLength(1 + 4)
    expectDetail(await exportCsv('?before=yesterday'), 422)
  })

  it('neutralises cells starting with = + - @ by prefixing a quote', async () => {
    const res = await exportCsv('?kind=csv.')
    expect(res.status).toBe(200)
    const text = res.text
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`)
    expect(text).toContain(`"'+1+2"`)
    expect(text).toContain(`"'-3"`)
    expect(text).toContain(`"'@actor","'@SUM(A1)"`)
    expect(text).toContain(`"plain, with ""quotes"""`)
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m)
  })

  it('answers 401 anonymous, 403 member and leader, 200 admin and break-glass', async () => {
    expectDetail(await exportCsv('', {}), 401)
    expectDetail(await exportCsv('', { cookie: member.cookie }), 403)
    expectDetail(await exportCsv('', { cookie: leader.cookie }), 403)
    expect((await exportCsv('', { cookie: admin.cookie })).status).toBe(200)
    expect((await exportCsv('', { token: ADMIN_TOKEN })).status).toBe(200)
  })
})

// Every timestamp the API takes is read by one strict RFC 3339 parser; these are the writes that rolled over before.
describe('impossible timestamps are refused, not rolled over', () => {
  const HINT = 'must be a real date and time in RFC 3339, e.g. 2026-12-05T18:00:00Z'
  const announce = (ends_at: string) =>
    s.req('POST', '/api/admin/announcements', { cookie: owner.cookie, json: { message: 'Timestamp check', ends_at } })

  it('announcements: ends_at 2027-02-30 or T24:00:00 is 422; lowercase t and z are taken', async () => {
    for (const ends of ['2027-02-30T10:00:00Z', '2027-06-01T24:00:00Z']) {
      const res = await announce(ends)
      expectDetail(res, 422)
      expect(res.body.detail, ends).toContain(`ends_at: ${HINT}`)
    }
    const lower = await announce('2099-01-01t10:00:00z')
    expect(lower.status).toBe(201)
    expect(lower.body.ends_at).toBe('2099-01-01T10:00:00.000Z')
    expect((await s.req('DELETE', `/api/admin/announcements/${lower.body.id}`, { cookie: owner.cookie })).status).toBe(200)
  })

  it('social posts: scheduled_for 2027-04-31 or T24:00:00 is 422', async () => {
    const { key } = await s.mintKey(owner.cookie, ['socialposts:ingest'])
    const report = (scheduled_for: string) =>
      s.req('POST', '/api/admin/socialposts/ingest', {
        key,
        json: { id: 'pack/timestamps', unit: 'pack', status: 'scheduled', message: 'Timestamp check', scheduled_for },
      })
    for (const when of ['2027-04-31T10:00:00Z', '2027-04-30T24:00:00Z']) {
      const res = await report(when)
      expectDetail(res, 422)
      expect(res.body.detail, when).toContain(`scheduled_for: ${HINT}`)
    }
    const lower = await report('2027-04-30t10:00:00+02:00')
    expect(lower.status).toBe(200)
    expect(lower.body.post.scheduled_for).toBe('2027-04-30T08:00:00.000Z')
  })
})
