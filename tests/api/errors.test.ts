// The one error shape: bad input is a 4xx with {detail} naming the field, never a 500 or a leaked stack.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let owner: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const expectDetail = (res: { status: number; body: any; text: string }, status: number) => {
  expect(res.status).toBe(status)
  expect(typeof res.body.detail).toBe('string')
  expect(res.text).not.toMatch(/at .*\.ts:\d+/)
}

describe('errors', () => {
  it('answers 400 to malformed JSON', async () => {
    const res = await s.req('POST', '/api/admin/keys', {
      cookie: owner.cookie,
      body: '{"label": ',
      headers: { 'content-type': 'application/json' },
    })
    expectDetail(res, 400)
  })

  it('answers 422 naming an unknown body field', async () => {
    const res = await s.req('POST', '/api/admin/keys', {
      cookie: owner.cookie,
      json: { label: 'k', scopes: ['leads:read'], colour: 'red' },
    })
    expectDetail(res, 422)
    expect(res.body.detail).toContain('colour')
  })

  it('answers 422 naming a missing or mistyped field', async () => {
    const missing = await s.req('POST', '/api/admin/keys', { cookie: owner.cookie, json: { scopes: ['leads:read'] } })
    expectDetail(missing, 422)
    expect(missing.body.detail).toContain('label')
    const mistyped = await s.req('POST', '/api/admin/keys', { cookie: owner.cookie, json: { label: 'k', scopes: 'leads:read' } })
    expectDetail(mistyped, 422)
    expect(mistyped.body.detail).toContain('scopes')
  })

  it('answers 422, not 500, to a value whose own toString is not a function (found by the fuzzer)', async () => {
    const res = await s.req('POST', '/api/join', { json: { parent_name: 'A', email: 'a@example.org', message: [[{ toString: null }]] } })
    expectDetail(res, 422)
    expect((await s.db.selectFrom('leads').select('id').execute()).length).toBe(0)
  })

  it('answers 4xx to a wrong content type', async () => {
    const res = await s.req('POST', '/api/admin/keys', { cookie: owner.cookie, body: 'label=k', headers: { 'content-type': 'text/plain' } })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(typeof res.body.detail).toBe('string')
  })

  it('answers 413 to an oversized body and writes nothing', async () => {
    const before = await s.db.selectFrom('api_keys').select('id').execute()
    const res = await s.req('POST', '/api/admin/keys', {
      cookie: owner.cookie,
      body: JSON.stringify({ label: 'x'.repeat(2_000_000), scopes: ['leads:read'] }),
      headers: { 'content-type': 'application/json' },
    })
    expectDetail(res, 413)
    expect((await s.db.selectFrom('api_keys').select('id').execute()).length).toBe(before.length)
  })

  it('answers 404 {detail} to an unknown route and 401 to an unknown admin route without a credential', async () => {
    expectDetail(await s.req('GET', '/api/no/such/thing'), 404)
    expectDetail(await s.req('GET', '/api/admin/no-such-thing'), 401)
    expectDetail(await s.req('GET', '/api/admin/no-such-thing', { cookie: owner.cookie }), 404)
  })

  it('answers 422 naming the field when a JSON body carries a string where the schema says integer, and writes nothing', async () => {
    const key = await s.req('POST', '/api/admin/keys', {
      cookie: owner.cookie,
      json: { label: 'k', scopes: ['leads:read'], expires_days: '30' },
    })
    expectDetail(key, 422)
    expect(key.body.detail).toStartWith('expires_days:')
    expect(await s.db.selectFrom('api_keys').select('id').execute()).toEqual([])
    const household = await s.req('POST', '/api/admin/roster/households', {
      cookie: owner.cookie,
      json: { parent_name: 'Ann', lead_id: '1' },
    })
    expectDetail(household, 422)
    expect(household.body.detail).toStartWith('lead_id:')
    const invite = await s.req('POST', '/api/admin/people/invite', {
      cookie: owner.cookie,
      json: { email: 'typed@example.org', units: [{ unit_id: '1', role: 'member' }] },
    })
    expectDetail(invite, 422)
    expect(invite.body.detail).toStartWith('units.0.unit_id:')
    // Query strings are text: there "5" is the number 5.
    expect((await s.req('GET', '/api/admin/history?limit=5', { cookie: owner.cookie })).status).toBe(200)
  })

  it('answers 422 to a bad query value', async () => {
    expectDetail(await s.req('GET', '/api/admin/history?limit=zero', { cookie: owner.cookie }), 422)
  })

  it('sends nosniff, a referrer policy and no-store on admin answers', async () => {
    const res = await s.req('GET', '/api/admin/whoami', { cookie: owner.cookie })
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('same-origin')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect((await s.req('GET', '/api/admin/whoami')).headers.get('cache-control')).toBe('no-store')
  })
})
