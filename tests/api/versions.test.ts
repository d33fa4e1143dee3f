// Versions of single admin resources: a GET answers a strong ETag and 304 to If-None-Match; a PATCH with If-Match
// that no longer matches is 412 and writes nothing, so two leaders editing one household cannot overwrite each other.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { addHousehold } from '../households.ts'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let a: { cookie: string }
let b: { cookie: string }
let id: number
beforeAll(async () => {
  s = await startServer()
  a = await s.as(ROLES.owner)
  b = await s.as(ROLES.admin)
  id = await addHousehold(s.db, { unit: 'pack', email: 'versions@example.org', parent_name: 'Vera Sion' })
})
afterAll(() => s.stop())

const path = () => `/api/admin/roster/households/${id}`
const read = (who = a, headers: Record<string, string> = {}) => s.req('GET', path(), { cookie: who.cookie, headers })
const patch = (who: { cookie: string }, json: object, headers: Record<string, string> = {}) =>
  s.req('PATCH', path(), { cookie: who.cookie, json, headers })

describe('ETag and If-Match on a household', () => {
  it('answers a strong ETag that changes only with the household, and 304 to If-None-Match', async () => {
    const first = await read()
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    expect((await read(b)).headers.get('etag')).toBe(etag)
    const cached = await read(a, { 'if-none-match': etag })
    expect(cached.status).toBe(304)
    expect(cached.headers.get('etag')).toBe(etag)
    expect((await read(a, { 'if-none-match': '"other"' })).status).toBe(200)
  })

  it('lets the first of two editors win and answers the second 412, writing nothing', async () => {
    const etag = (await read()).headers.get('etag')!
    const first = await patch(a, { phone: '555-100-0001' }, { 'if-match': etag })
    expect(first.status).toBe(200)
    const newer = first.headers.get('etag')!
    expect(newer).not.toBe(etag)
    expect((await read()).headers.get('etag')).toBe(newer)
    const second = await patch(b, { phone: '555-100-0002' }, { 'if-match': etag })
    expectDetail(second, 412)
    expect(second.body.code).toBe('precondition_failed')
    expect((await read()).body.phone).toBe('555-100-0001')
    // With the new tag (or `*`) the edit goes ahead; a weak tag never matches.
    expect((await patch(b, { phone: '555-100-0003' }, { 'if-match': `W/${newer}` })).status).toBe(412)
    expect((await patch(b, { phone: '555-100-0003' }, { 'if-match': newer })).status).toBe(200)
    expect((await patch(b, { notes: 'seen' }, { 'if-match': '*' })).status).toBe(200)
  })

  it('keeps the check and the write together when both editors send at once: exactly one wins', async () => {
    const etag = (await read()).headers.get('etag')!
    const answers = await Promise.all([
      patch(a, { phone: '555-200-0001' }, { 'if-match': etag }),
      patch(b, { phone: '555-200-0002' }, { 'if-match': etag }),
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412])
  })

  it('writes as before without If-Match, and 404 (as without it) for a household that is not there', async () => {
    expect((await patch(a, { notes: 'no precondition' })).status).toBe(200)
    const gone = await s.req('PATCH', '/api/admin/roster/households/999999', {
      cookie: a.cookie,
      json: { notes: 'x' },
      headers: { 'if-match': '*' },
    })
    expectDetail(gone, 404)
  })
})

describe('ETag on a create', () => {
  it('answers a new resource with the ETag its GET answers, so the next write can send If-Match at once', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString()
    const creates: [string, object][] = [
      ['/api/admin/announcements', { message: 'Pack meeting moved', ends_at: inAnHour }],
      ['/api/admin/nearby', { name: 'Crew 9', unit_type: 'crew' }],
      ['/api/admin/roster/households', { parent_name: 'Etta Gee' }],
    ]
    for (const [at, json] of creates) {
      const made = await s.req('POST', at, { cookie: a.cookie, json })
      expect([at, made.status]).toEqual([at, 201])
      const got = await s.req('GET', `${at}/${made.body.id}`, { cookie: a.cookie })
      expect([at, made.headers.get('etag')]).toEqual([at, got.headers.get('etag')])
    }
    // A key's GET never shows its secret, and the tag is of what GET answers.
    const key = await s.req('POST', '/api/admin/keys', { cookie: a.cookie, json: { label: 'Tagged', scopes: ['leads:read'] } })
    if (key.status === 201) {
      const got = await s.req('GET', `/api/admin/keys/${key.body.id}`, { cookie: a.cookie })
      expect(key.headers.get('etag')).toBe(got.headers.get('etag'))
    }
  })
})
