// Settings API: the typed registry, validation of every key, null restores the default, credentials, and the action log.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let owner: { id: number; email: string; cookie: string }
let admin: { id: number; email: string; cookie: string }
let member: { cookie: string }
let leader: { cookie: string }
let scopedKey: { id: number; key: string }
let unscopedKey: { id: number; key: string }

beforeAll(async () => {
  s = await startServer()
  ;({ owner, admin, member, packLeader: leader } = await s.asEveryRole())
  scopedKey = await s.mintKey(admin.cookie, ['settings:write'])
  unscopedKey = await s.mintKey(admin.cookie, ['history:read', 'leads:read'])
})
afterAll(() => s.stop())

const KEYS = [
  'api_keys_from',
  'announcements.max_chars',
  'announcements.live_cap',
  'site.timezone',
  'mirrors.spreadsheet_url',
  'socialposts.control_url',
  'socialposts.min_lead_minutes',
  'roster.year_start_month',
  'site.name',
  'site.description',
  'backups.keep',
  'backups.hour',
]

const DEFAULTS: Record<string, unknown> = {
  api_keys_from: 'lan',
  'announcements.max_chars': 280,
  'announcements.live_cap': 3,
  'site.timezone': 'America/Chicago',
  'mirrors.spreadsheet_url': null,
  'socialposts.control_url': null,
  'socialposts.min_lead_minutes': 30,
  'roster.year_start_month': 8,
  'site.name': 'Pack & Troop',
  'site.description': 'A Cub Scout pack and a Scouts BSA troop: meetings, events and how to join.',
  'backups.keep': 7,
  'backups.hour': 3,
}

const put = (key: string, json: unknown, cookie = owner.cookie) => s.req('PUT', `/api/admin/settings/${key}`, { cookie, json })

async function settings(): Promise<any[]> {
  const res = await s.req('GET', '/api/admin/settings', { cookie: owner.cookie })
  expect(res.status).toBe(200)
  return res.body.settings
}
const valueOf = async (key: string) => (await settings()).find((x) => x.key === key)?.value

const logCount = async () => Number((await s.db.selectFrom('action_log').select(s.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

const lastUpdate = () =>
  s.db.selectFrom('action_log').selectAll().where('kind', '=', 'settings.update').orderBy('id', 'desc').executeTakeFirst()

describe('GET /api/admin/settings/:key', () => {
  it('answers one setting as the list shows it; an unknown key 404; a leader 403', async () => {
    const listed = (await settings()).find((x) => x.key === 'announcements.live_cap')
    const res = await s.req('GET', '/api/admin/settings/announcements.live_cap', { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(listed)
    expectDetail(await s.req('GET', '/api/admin/settings/no.such.setting', { cookie: owner.cookie }), 404)
    expectDetail(await s.req('GET', '/api/admin/settings/toString', { cookie: owner.cookie }), 404)
    expectDetail(await s.req('GET', '/api/admin/settings/announcements.live_cap', { cookie: leader.cookie }), 403)
  })
})

describe('GET /api/admin/settings', () => {
  it('lists every setting named in the decisions with key, type, value, default and description', async () => {
    const res = await s.req('GET', '/api/admin/settings', { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(Array.isArray(res.body.settings)).toBe(true)
    const keys = res.body.settings.map((x: any) => x.key)
    for (const k of KEYS) expect(keys).toContain(k)
    expect(new Set(keys).size).toBe(keys.length)
    for (const x of res.body.settings) {
      // The named fields, and for some settings the words the page shows: choices, or a whole number's bounds.
      const optional = ['choices', 'minimum', 'maximum']
      expect(
        Object.keys(x)
          .filter((k) => !optional.includes(k))
          .sort(),
      ).toEqual(['default', 'description', 'key', 'label', 'type', 'value'])
      if (Number.isInteger(x.default)) expect([x.minimum, x.maximum].every(Number.isInteger)).toBe(true)
      expect(typeof x.label).toBe('string')
      expect(typeof x.type).toBe('string')
      expect(typeof x.description).toBe('string')
      expect(x.description.length).toBeGreaterThan(0)
    }
    for (const k of KEYS) {
      const x = res.body.settings.find((y: any) => y.key === k)
      expect(x.default).toEqual(DEFAULTS[k])
      expect(x.value).toEqual(DEFAULTS[k])
    }
  })

  it('answers 401 anonymous, 403 member, leader and an unscoped key; 200 admin, owner, break-glass and a settings:write key', async () => {
    const get = (o: Parameters<TestServer['req']>[2]) => s.req('GET', '/api/admin/settings', o)
    expectDetail(await get({}), 401)
    expectDetail(await get({ cookie: member.cookie }), 403)
    expectDetail(await get({ cookie: leader.cookie }), 403)
    expect((await get({ cookie: admin.cookie })).status).toBe(200)
    expect((await get({ cookie: owner.cookie })).status).toBe(200)
    expect((await get({ token: ADMIN_TOKEN })).status).toBe(200)
    expect((await get({ key: scopedKey.key })).status).toBe(200)
    expectDetail(await get({ key: unscopedKey.key }), 403)
  })
})

describe('PUT /api/admin/settings/api_keys_from', () => {
  it('widening it to anywhere needs a signed-in person: a key or the break-glass token gets 403 and nothing changes', async () => {
    const { key } = await s.mintKey(admin.cookie, ['settings:write'])
    for (const creds of [{ key }, { token: ADMIN_TOKEN }]) {
      const res = await s.req('PUT', '/api/admin/settings/api_keys_from', { ...creds, json: { value: 'anywhere' } })
      expectDetail(res, 403)
      expect(res.body.detail).toContain('sign in')
      expect((await settings()).find((x) => x.key === 'api_keys_from').value).toBe('lan')
    }
    // Narrowing, or restoring the default, is no widening: a key may do it.
    expect((await s.req('PUT', '/api/admin/settings/api_keys_from', { key, json: { value: 'lan' } })).status).toBe(200)
    expect((await s.req('PUT', '/api/admin/settings/api_keys_from', { key, json: { value: null } })).status).toBe(200)
    expect((await put('api_keys_from', { value: 'anywhere' }, admin.cookie)).status).toBe(200)
    expect((await put('api_keys_from', { value: null }, admin.cookie)).status).toBe(200)
  })
})

describe('PUT /api/admin/settings/:key', () => {
  it('answers 200 for a valid value of each setting, and GET then shows it', async () => {
    const good: Record<string, unknown> = {
      api_keys_from: 'anywhere',
      'announcements.max_chars': 2000,
      'announcements.live_cap': 1,
      'site.timezone': 'Europe/London',
      'mirrors.spreadsheet_url': 'https://script.example.org/exec',
      'socialposts.control_url': 'http://publisher.lan:8080',
      'socialposts.min_lead_minutes': 0,
      'roster.year_start_month': 12,
      'backups.keep': 90,
      'backups.hour': 0,
    }
    for (const [key, value] of Object.entries(good)) {
      const res = await put(key, { value })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ key, value, default: DEFAULTS[key] })
      expect((await s.req('GET', `/api/admin/settings/${key}`, { cookie: owner.cookie })).body).toEqual(res.body)
    }
    const listed = await settings()
    for (const [key, value] of Object.entries(good)) expect(listed.find((x) => x.key === key).value).toEqual(value)
    for (const key of Object.keys(good)) expect((await put(key, { value: null })).status).toBe(200)
  })

  it('restores the default for null and removes the stored value', async () => {
    expect((await put('announcements.live_cap', { value: 7 })).status).toBe(200)
    expect(await valueOf('announcements.live_cap')).toBe(7)
    const res = await put('announcements.live_cap', { value: null })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ key: 'announcements.live_cap', value: 3, default: 3 })
    expect(await valueOf('announcements.live_cap')).toBe(3)
    const row = await s.db.selectFrom('settings').selectAll().where('key', '=', 'announcements.live_cap').executeTakeFirst()
    expect(row).toBeUndefined()
    expect((await put('mirrors.spreadsheet_url', { value: 'https://a.example/x' })).status).toBe(200)
    expect((await put('mirrors.spreadsheet_url', { value: null })).status).toBe(200)
    expect(await valueOf('mirrors.spreadsheet_url')).toBeNull()
  })

  it('answers 422 for a bad value of each setting and writes nothing', async () => {
    expect((await put('announcements.max_chars', { value: 400 })).status).toBe(200)
    const bad: [string, unknown][] = [
      ['api_keys_from', 'everywhere'],
      ['api_keys_from', 1],
      ['api_keys_from', 'LAN'],
      ['announcements.max_chars', 0],
      ['announcements.max_chars', 2001],
      ['announcements.max_chars', 1.5],
      ['announcements.max_chars', '300'],
      ['announcements.live_cap', 0],
      ['announcements.live_cap', 21],
      ['announcements.live_cap', true],
      ['site.timezone', 'Mars/Olympus'],
      ['site.timezone', ''],
      ['site.timezone', 5],
      ['mirrors.spreadsheet_url', 'ftp://x'],
      ['mirrors.spreadsheet_url', 'not a url'],
      ['mirrors.spreadsheet_url', 42],
      ['socialposts.control_url', 'ftp://x'],
      ['socialposts.control_url', 'javascript:alert(1)'],
      ['socialposts.control_url', {}],
      ['socialposts.min_lead_minutes', -1],
      ['socialposts.min_lead_minutes', 10081],
      ['socialposts.min_lead_minutes', '30'],
      ['roster.year_start_month', 0],
      ['roster.year_start_month', 13],
      ['roster.year_start_month', 'august'],
      ['backups.keep', 0],
      ['backups.keep', 91],
      ['backups.keep', '7'],
      ['backups.hour', -1],
      ['backups.hour', 24],
      ['backups.hour', 3.5],
    ]
    const before = await settings()
    const count = await logCount()
    for (const [key, value] of bad) {
      const res = await put(key, { value })
      if (res.status !== 422) throw new Error(`${key} = ${JSON.stringify(value)} answered ${res.status}, expected 422`)
      expectDetail(res, 422)
    }
    expect(await logCount()).toBe(count)
    expect(await settings()).toEqual(before)
    expect(await valueOf('announcements.max_chars')).toBe(400)
    expect((await put('announcements.max_chars', { value: null })).status).toBe(200)
  })

  it('answers 422 for an unknown key, a missing value and an extra body field', async () => {
    const count = await logCount()
    expectDetail(await put('no.such.setting', { value: 1 }), 422)
    expectDetail(await put('site.unknown', { value: null }), 422)
    expectDetail(await put('roster.year_start_month', {}), 422)
    expectDetail(await put('roster.year_start_month', { value: 9, extra: true }), 422)
    expectDetail(await put('roster.year_start_month', { val: 9 }), 422)
    expect(await logCount()).toBe(count)
    expect(await valueOf('roster.year_start_month')).toBe(8)
    expect((await settings()).map((x) => x.key)).not.toContain('no.such.setting')
  })

  it('answers 401 anonymous, 403 member, leader and an unscoped key; 200 admin, owner, break-glass and a settings:write key', async () => {
    const p = (o: Parameters<TestServer['req']>[2]) => s.req('PUT', '/api/admin/settings/roster.year_start_month', o)
    const json = { value: 9 }
    const count = await logCount()
    expectDetail(await p({ json }), 401)
    expectDetail(await p({ json, cookie: member.cookie }), 403)
    expectDetail(await p({ json, cookie: leader.cookie }), 403)
    expectDetail(await p({ json, key: unscopedKey.key }), 403)
    expect(await logCount()).toBe(count)
    expect(await valueOf('roster.year_start_month')).toBe(8)
    expect((await p({ json, cookie: admin.cookie })).status).toBe(200)
    expect((await p({ json: { value: 10 }, cookie: owner.cookie })).status).toBe(200)
    expect((await p({ json: { value: 11 }, token: ADMIN_TOKEN })).status).toBe(200)
    expect((await p({ json: { value: 2 }, key: scopedKey.key })).status).toBe(200)
    expect(await valueOf('roster.year_start_month')).toBe(2)
    expect((await p({ json: { value: null }, cookie: owner.cookie })).status).toBe(200)
  })

  it('logs each change as settings.update with the actor: email, key or break_glass', async () => {
    const count = await logCount()
    expect((await put('socialposts.min_lead_minutes', { value: 45 }, admin.cookie)).status).toBe(200)
    let entry = await lastUpdate()
    expect(entry).toMatchObject({ kind: 'settings.update', actor: admin.email })
    // In words, never the key: the label, the new value and the one it replaced.
    expect(entry!.summary).toBe('Notice for a rescheduled post (minutes): 45 (was 30)')

    const byToken = await s.req('PUT', '/api/admin/settings/socialposts.min_lead_minutes', { token: ADMIN_TOKEN, json: { value: 60 } })
    expect(byToken.status).toBe(200)
    entry = await lastUpdate()
    expect(entry).toMatchObject({ kind: 'settings.update', actor: 'break_glass' })

    const byKey = await s.req('PUT', '/api/admin/settings/socialposts.min_lead_minutes', { key: scopedKey.key, json: { value: 90 } })
    expect(byKey.status).toBe(200)
    entry = await lastUpdate()
    expect(entry!.actor).toContain(`#${scopedKey.id}`)
    expect(entry!.actor).not.toBe(admin.email)

    expect((await put('socialposts.min_lead_minutes', { value: null }, owner.cookie)).status).toBe(200)
    entry = await lastUpdate()
    expect(entry).toMatchObject({ kind: 'settings.update', actor: owner.email })
    expect(entry!.summary).toBe('Notice for a rescheduled post (minutes): back to the default, 30 (was 90)')
    expect((await put('security.second_factor', { value: 'admins' }, owner.cookie)).status).toBe(200)
    expect((await lastUpdate())!.summary).not.toContain('security.second_factor')
    expect((await put('security.second_factor', { value: null }, owner.cookie)).status).toBe(200)
    expect((await lastUpdate())!.summary).not.toContain('.')
    expect(await logCount()).toBe(count + 6)

    // And it shows through the history API.
    const res = await s.req('GET', '/api/admin/history?kind=settings.update&limit=6', { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(res.body.entries.map((e: any) => e.actor)).toEqual([
      owner.email,
      owner.email,
      owner.email,
      expect.stringContaining(`#${scopedKey.id}`),
      'break_glass',
      admin.email,
    ])
  })
})

describe('a setting changed by hand in the database', () => {
  it('takes effect within 10 s, as the README says (the clock moved on 11 s)', async () => {
    const announce = () =>
      s.req('POST', '/api/admin/announcements', {
        cookie: leader.cookie,
        json: { message: 'Ten chars!', ends_at: new Date(Date.now() + 86_400_000).toISOString() },
      })
    expect((await s.req('GET', '/api/admin/settings', { cookie: admin.cookie })).status).toBe(200) // read and held
    await s.db.insertInto('settings').values({ key: 'announcements.max_chars', value: '5', updated_at: new Date().toISOString() }).execute()
    try {
      setSystemTime(new Date(Date.now() + 11_000))
      const refused = await announce()
      expect(refused.status).toBe(422)
      expect(refused.body.detail).toContain('5')
    } finally {
      setSystemTime()
      await s.db.deleteFrom('settings').where('key', '=', 'announcements.max_chars').execute()
    }
  })
})
