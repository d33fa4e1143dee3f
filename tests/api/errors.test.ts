// The one error shape: bad input is a 4xx with {detail} naming the field, never a 500 or a leaked stack.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let owner: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

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

  it('lists every problem of a 422 by field with a code, not only the first', async () => {
    const res = await s.req('POST', '/api/admin/nearby', {
      cookie: owner.cookie,
      json: {
        unit_type: 'navy',
        meeting_day: 'someday',
        meeting_time: 'late',
        verified_at: '2026-02-30',
        contact_email: 'nobody',
        colour: 1,
      },
    })
    expectDetail(res, 422)
    expect(res.body.code).toBe('validation_failed')
    const byField = Object.fromEntries(res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]))
    expect(byField).toEqual({
      name: 'required',
      unit_type: 'not_allowed',
      meeting_day: 'not_allowed',
      meeting_time: expect.any(String),
      verified_at: expect.any(String),
      contact_email: expect.any(String),
      colour: 'unknown_field',
    })
    for (const e of res.body.errors) expect(e.detail.startsWith(`${e.field}: `)).toBe(true)
    expect(res.body.detail).toBe(res.body.errors[0].detail)
  })

  it('explains a body of one of two shapes by the shape it was meant for', async () => {
    const household = (json: object) => s.req('POST', '/api/admin/roster/households', { cookie: owner.cookie, json })
    const none = await household({})
    expect(none.body.errors).toEqual([{ field: 'parent_name', code: 'required', detail: 'parent_name: is required' }])
    const fromLead = await household({ lead_id: 0, unit: 'den' })
    expect(fromLead.body.errors.map((e: { field: string }) => e.field)).toEqual(['lead_id', 'unit'])
    const both = await household({ parent_name: 'A', email: 'nope', lead_id: 3 })
    expect(both.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'lead_id'])
  })

  it('gives a handler-found 422 its field too, from the words it starts with', async () => {
    const res = await s.req('POST', '/api/admin/announcements', {
      cookie: owner.cookie,
      json: { message: 'x', unit: 'pack', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' },
    })
    expectDetail(res, 422)
    expect(res.body.errors).toEqual([{ field: 'ends_at', code: 'invalid', detail: res.body.detail }])
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

  it('answers 405 with Allow to a known path asked with another method', async () => {
    const res = await s.req('PUT', '/api/admin/keys', { cookie: owner.cookie, json: {} })
    expectDetail(res, 405)
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE')
    const one = await s.req('PATCH', '/api/admin/keys/5', { cookie: owner.cookie, json: {} })
    expectDetail(one, 405)
    expect(one.headers.get('allow')).toBe('GET, DELETE')
    expectDetail(await s.req('GET', '/api/admin/no-such-thing', { cookie: owner.cookie }), 404)
    // A fixed path beside a parameter path names its own methods only.
    const preview = await s.req('PUT', '/api/admin/pages/preview', { cookie: owner.cookie, json: {} })
    expect([preview.status, preview.headers.get('allow')]).toEqual([405, 'POST'])
  })

  it('names the credential to send with every 401 (WWW-Authenticate)', async () => {
    for (const res of [
      await s.req('GET', '/api/admin/whoami'),
      await s.req('GET', '/api/admin/whoami', { key: 'site_not-a-real-key' }),
      await s.req('POST', '/login', { json: { email: 'nobody@example.org', password: 'wrong-pass' } }),
    ]) {
      expectDetail(res, 401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="site"')
    }
  })

  it('answers 415 to a body that is neither JSON nor a form, and 415 to a form where only JSON is taken', async () => {
    const plain = await s.req('POST', '/api/join', { body: 'parent_name=A', headers: { 'content-type': 'text/plain' } })
    expectDetail(plain, 415)
    const form = await s.req('POST', '/api/admin/keys', { cookie: owner.cookie, form: { label: 'k', scopes: 'leads:read' } })
    expectDetail(form, 415)
    expect(form.body.detail).toContain('JSON')
  })

  it("says what is wrong in plain words, naming the field, never in the validator's terms", async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/admin/keys', { label: 'k', scopes: ['no:such'] }, 'scopes: must be one or more capability names'],
      ['POST', '/api/admin/keys', { label: 'k', scopes: ['leads:read'], colour: 'red' }, 'colour: is not a field of this request'],
      ['POST', '/api/admin/nearby', { name: 'Crew', unit_type: 'club' }, 'unit_type: must be pack, troop, crew, ship or post'],
      [
        'POST',
        '/api/admin/nearby',
        { name: 'Crew', unit_type: 'crew', contact_email: 'not-an-email' },
        'contact_email: must be an email address',
      ],
      ['POST', '/api/admin/nearby', { name: 'Crew', unit_type: 'crew', meeting_time: '7pm' }, 'meeting_time: must be a 24-hour time HH:MM'],
      ['POST', '/api/admin/nearby', { unit_type: 'crew' }, 'name: is required'],
      ['POST', '/api/admin/nearby', { name: '', unit_type: 'crew' }, 'name: must not be empty'],
      ['POST', '/api/admin/nearby', { name: 'Crew', unit_type: 'crew', active: 2 }, 'active: is not a field of this request'],
      [
        'PATCH',
        '/api/admin/units/pack',
        { meeting_day: 'funday' },
        'meeting_day: must be monday, tuesday, wednesday, thursday, friday, saturday or sunday',
      ],
      [
        'PUT',
        '/api/admin/people/1/roles',
        { global_role: null, units: [{ unit_id: 'one', role: 'member' }] },
        'units.0.unit_id: must be a whole number',
      ],
    ]
    for (const [method, path, json, detail] of cases) {
      const res = await s.req(method, path, { cookie: owner.cookie, json })
      expectDetail(res, 422)
      expect(res.body.detail, `${method} ${path} ${JSON.stringify(json)}`).toBe(detail)
      expect(res.body.detail).not.toMatch(/Expected|union|Invalid property/)
    }
  })

  it('refuses NUL and control characters with 422; tab and line breaks only in text that runs over lines', async () => {
    for (const name of ['Crew\u0000', 'Crew\u0007', 'Crew\nTwo', 'Crew\ttab']) {
      const res = await s.req('POST', '/api/admin/nearby', { cookie: owner.cookie, json: { name, unit_type: 'crew' } })
      expectDetail(res, 422)
      expect(res.body.detail).toBe('name: must be one line without control characters')
    }
    const notes = await s.req('POST', '/api/admin/nearby', {
      cookie: owner.cookie,
      json: { name: 'Crew 9', unit_type: 'crew', notes: 'Line one\n\tLine two\r\n' },
    })
    expect(notes.status).toBe(201)
    const nul = await s.req('POST', '/api/admin/nearby', {
      cookie: owner.cookie,
      json: { name: 'Crew 10', unit_type: 'crew', notes: 'a\u0000b' },
    })
    expectDetail(nul, 422)
    expect(nul.body.detail).toBe('notes: must not contain control characters other than tab and line breaks')
  })

  it('sends nosniff, a referrer policy and no-store on admin answers', async () => {
    const res = await s.req('GET', '/api/admin/whoami', { cookie: owner.cookie })
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('same-origin')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect((await s.req('GET', '/api/admin/whoami')).headers.get('cache-control')).toBe('no-store')
  })
})
