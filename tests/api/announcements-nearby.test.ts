// Announcements (computed state, caps, revoke) and nearby units (editing list, verified_at, deactivate).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { withStates } from '../../server/announcements/state.ts'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let leader: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
})
afterAll(() => s.stop())

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString()
const announce = (json: Record<string, unknown>, cookie = leader.cookie) => s.req('POST', '/api/admin/announcements', { cookie, json })
const revokeAll = async () => {
  for (const a of (await s.req('GET', '/api/admin/announcements', { cookie: leader.cookie })).body.announcements)
    if (a.state !== 'revoked') await s.req('DELETE', `/api/admin/announcements/${a.id}`, { cookie: leader.cookie })
}

describe('withStates', () => {
  it('orders revoked > expired > scheduled > live, and fills the cap with the earliest-starting open ones', () => {
    const now = Date.parse('2026-11-22T12:00:00Z')
    const row = (id: number, starts: string, ends: string, revoked: string | null = null) => ({
      id,
      message: 'm',
      starts_at: starts,
      ends_at: ends,
      created_at: starts,
      created_by: 't',
      revoked_at: revoked,
      unit: 'both' as const,
    })
    const states = withStates(
      [
        row(1, '2026-11-22T09:00:00Z', '2026-11-23T00:00:00Z'),
        row(2, '2026-11-22T08:00:00Z', '2026-11-23T00:00:00Z'),
        row(3, '2026-11-22T10:00:00Z', '2026-11-23T00:00:00Z'),
        row(4, '2026-11-22T13:00:00Z', '2026-11-23T00:00:00Z'),
        row(5, '2026-11-21T00:00:00Z', '2026-11-22T11:00:00Z'),
        row(6, '2026-11-21T00:00:00Z', '2026-11-21T01:00:00Z', '2026-11-21T00:30:00Z'),
      ],
      2,
      now,
    )
    expect(states.map((a) => [a.id, a.state])).toEqual([
      [1, 'live'],
      [2, 'live'],
      [3, 'over_cap'],
      [4, 'scheduled'],
      [5, 'expired'],
      [6, 'revoked'],
    ])
  })
})

describe('POST /api/admin/announcements', () => {
  it('answers 201 with state live, logs it and asks for a rebuild; a future start is scheduled', async () => {
    await revokeAll()
    const rebuilds = s.rebuilds.count
    const res = await announce({ message: 'Popcorn orders due Friday', ends_at: inHours(24) })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ message: 'Popcorn orders due Friday', state: 'live', revoked_at: null })
    expect(s.rebuilds.count).toBe(rebuilds + 1)
    const later = await announce({ message: 'Winter camp sign-ups open', starts_at: inHours(48), ends_at: inHours(72) })
    expect(later.body.state).toBe('scheduled')
    const log = await s.lastLog('announcements.create')
    expect(log.actor).toBe(leader.email)
  })

  it('answers 422 without ends_at, over the character cap, for a bad window or timestamp, and an unknown field', async () => {
    expect((await announce({ message: 'x' })).status).toBe(422)
    expect((await announce({ message: 'x'.repeat(281), ends_at: inHours(1) })).status).toBe(422)
    expect((await announce({ message: '🎉'.repeat(280), ends_at: inHours(1) })).status).not.toBe(422)
    await revokeAll()
    expect((await announce({ message: 'x', ends_at: inHours(-1) })).status).toBe(422)
    expect((await announce({ message: 'x', starts_at: inHours(5), ends_at: inHours(4) })).status).toBe(422)
    expect((await announce({ message: 'x', ends_at: '2026-12-01' })).status).toBe(422)
    expect((await announce({ message: 'x', ends_at: '2026-13-45T10:00:00Z' })).status).toBe(422)
    expect((await announce({ message: 'x', ends_at: inHours(1), colour: 'red' })).status).toBe(422)
    expect((await announce({ message: '   ', ends_at: inHours(1) })).status).toBe(422)
  })

  it('follows the max_chars setting', async () => {
    const admin = await s.as(ROLES.admin)
    await s.req('PUT', '/api/admin/settings/announcements.max_chars', { cookie: admin.cookie, json: { value: 10 } })
    expect((await announce({ message: 'eleven char', ends_at: inHours(1) })).status).toBe(422)
    await s.req('PUT', '/api/admin/settings/announcements.max_chars', { cookie: admin.cookie, json: { value: null } })
    await revokeAll()
  })

  it('answers 409 with the live announcements in the body when the live cap is reached', async () => {
    await revokeAll()
    for (let i = 0; i < 3; i++) expect((await announce({ message: `Live ${i}`, ends_at: inHours(2) })).status).toBe(201)
    expect((await s.req('GET', '/api/admin/summary', { cookie: leader.cookie })).body.live_announcements).toBe(3)
    const full = await announce({ message: 'One too many', ends_at: inHours(2) })
    expect(full.status).toBe(409)
    expect(full.body.detail).toContain('live cap of 3')
    expect(full.body.live.map((a: any) => a.message).sort()).toEqual(['Live 0', 'Live 1', 'Live 2'])
    expect((await announce({ message: 'Later is fine', starts_at: inHours(3), ends_at: inHours(4) })).status).toBe(201)
    const admin = await s.as(ROLES.admin)
    await s.req('PUT', '/api/admin/settings/announcements.live_cap', { cookie: admin.cookie, json: { value: 1 } })
    const list = (await s.req('GET', '/api/admin/announcements', { cookie: leader.cookie })).body.announcements
    expect(list.filter((a: any) => a.state === 'live').length).toBe(1)
    expect(list.filter((a: any) => a.state === 'over_cap').length).toBe(2)
    // Paged one at a time, each announcement has the state the whole list gives it (over_cap included).
    const paged: unknown[] = []
    let cursor: string | null = null
    do {
      const res: Awaited<ReturnType<typeof s.req>> = await s.req(
        'GET',
        `/api/admin/announcements?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { cookie: leader.cookie },
      )
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ max_chars: 280, live_cap: 1 })
      paged.push(...res.body.announcements)
      cursor = res.body.next_cursor
    } while (cursor)
    expect(paged).toEqual(list)
    expect((await s.req('GET', '/api/admin/announcements', { cookie: leader.cookie })).body).not.toHaveProperty('next_cursor')
    await s.req('PUT', '/api/admin/settings/announcements.live_cap', { cookie: admin.cookie, json: { value: null } })
  })
})

describe('GET /api/admin/announcements/:id', () => {
  it('answers one announcement as the list and its creation do; unknown 404; member 403', async () => {
    await revokeAll()
    const made = await announce({ message: 'Read me alone', ends_at: inHours(2), unit: 'troop' })
    const res = await s.req('GET', `/api/admin/announcements/${made.body.id}`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(made.body)
    const list = (await s.req('GET', '/api/admin/announcements', { cookie: leader.cookie })).body.announcements
    expect(res.body).toEqual(list.find((a: any) => a.id === made.body.id))
    expectDetail(await s.req('GET', '/api/admin/announcements/999999', { cookie: leader.cookie }), 404)
    expectDetail(await s.req('GET', `/api/admin/announcements/${made.body.id}`, { cookie: (await s.as(ROLES.member)).cookie }), 403)
  })
})

describe('DELETE /api/admin/announcements/:id', () => {
  it('revokes (200, row kept with revoked_at), again 409, unknown 404', async () => {
    await revokeAll()
    const { body } = await announce({ message: 'Short lived', ends_at: inHours(1) })
    const res = await s.req('DELETE', `/api/admin/announcements/${body.id}`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: body.id, state: 'revoked' })
    expect(res.body.revoked_at).not.toBeNull()
    expect((await s.req('GET', `/api/admin/announcements/${body.id}`, { cookie: leader.cookie })).body).toEqual(res.body)
    expect((await s.req('DELETE', `/api/admin/announcements/${body.id}`, { cookie: leader.cookie })).status).toBe(409)
    expect((await s.req('DELETE', '/api/admin/announcements/999999', { cookie: leader.cookie })).status).toBe(404)
    const list = (await s.req('GET', '/api/admin/announcements', { cookie: leader.cookie })).body.announcements
    expect(list.find((a: any) => a.id === body.id).state).toBe('revoked')
  })

  it('checks credentials: anonymous 401, member 403, break-glass 200', async () => {
    expect((await s.req('GET', '/api/admin/announcements')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/announcements', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/announcements', { token: ADMIN_TOKEN })).status).toBe(200)
    await revokeAll()
    const res = await s.req('POST', '/api/admin/announcements', {
      token: ADMIN_TOKEN,
      json: { message: 'From the LAN', ends_at: inHours(1) },
    })
    expect(res.status).toBe(201)
    expect(res.body.created_by).toBe('break_glass')
  })
})

describe('nearby units', () => {
  const add = (json: Record<string, unknown>) => s.req('POST', '/api/admin/nearby', { cookie: leader.cookie, json })

  it('POST answers 201 verified today, 422 for a bad unit_type, missing name or unknown field', async () => {
    const res = await add({
      name: 'St. Mark Venturing',
      unit_type: 'crew',
      unit_number: '12',
      town: 'Riverside',
      website: 'https://crew12.example',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'St. Mark Venturing', unit_type: 'crew', active: 1 })
    expect(res.body.verified_at).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    for (const unit_type of ['pack', 'troop', 'crew', 'ship', 'post'])
      expect((await add({ name: `A ${unit_type}`, unit_type })).status).toBe(201)
    expect((await add({ name: 'Bad', unit_type: 'club' })).status).toBe(422)
    expect((await add({ unit_type: 'pack' })).status).toBe(422)
    expect((await add({ name: 'X', unit_type: 'pack', colour: 'red' })).status).toBe(422)
    expect((await add({ name: 'X', unit_type: 'pack', website: 'javascript:alert(1)' })).status).toBe(422)
  })

  it('PATCH sets verified_at to today unless a date is sent; unknown field 422; unknown id 404', async () => {
    const { body } = await add({ name: 'Old Troop', unit_type: 'troop', verified_at: '2020-01-01' })
    expect(body.verified_at).toBe('2020-01-01')
    const edited = await s.req('PATCH', `/api/admin/nearby/${body.id}`, {
      cookie: leader.cookie,
      json: { meeting_day: 'monday', meeting_time: '19:00' },
    })
    expect(edited.status).toBe(200)
    expect(edited.body.verified_at).not.toBe('2020-01-01')
    expect(edited.body.verified_at).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const dated = await s.req('PATCH', `/api/admin/nearby/${body.id}`, {
      cookie: leader.cookie,
      json: { town: 'Hill', verified_at: '2025-06-01' },
    })
    expect(dated.body.verified_at).toBe('2025-06-01')
    expect((await s.req('PATCH', `/api/admin/nearby/${body.id}`, { cookie: leader.cookie, json: { colour: 'red' } })).status).toBe(422)
    expect((await s.req('PATCH', `/api/admin/nearby/${body.id}`, { cookie: leader.cookie, json: { unit_type: 'club' } })).status).toBe(422)
    expect(
      (await s.req('PATCH', `/api/admin/nearby/${body.id}`, { cookie: leader.cookie, json: { verified_at: '2025-02-30' } })).status,
    ).toBe(422)
    expect((await s.req('PATCH', '/api/admin/nearby/999999', { cookie: leader.cookie, json: { town: 'X' } })).status).toBe(404)
    const log = await s.lastLog('nearby.update')
    expect(log.actor).toBe(leader.email)
  })

  it('GET answers one row as the list, its creation and its change do; inactive too; unknown 404; member 403', async () => {
    const made = await add({ name: 'Read Alone Crew', unit_type: 'crew', town: 'Riverside' })
    const one = (id: number) => s.req('GET', `/api/admin/nearby/${id}`, { cookie: leader.cookie })
    expect((await one(made.body.id)).body).toEqual(made.body)
    const changed = await s.req('PATCH', `/api/admin/nearby/${made.body.id}`, { cookie: leader.cookie, json: { town: 'Hill' } })
    expect((await one(made.body.id)).body).toEqual(changed.body)
    const gone = await s.req('DELETE', `/api/admin/nearby/${made.body.id}`, { cookie: leader.cookie })
    const res = await one(made.body.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(gone.body)
    const list = (await s.req('GET', '/api/admin/nearby', { cookie: leader.cookie })).body.nearby
    expect(res.body).toEqual(list.find((n: any) => n.id === made.body.id))
    expectDetail(await one(999999), 404)
    expectDetail(await s.req('GET', `/api/admin/nearby/${made.body.id}`, { cookie: (await s.as(ROLES.member)).cookie }), 403)
  })

  it('DELETE deactivates (200, row kept and still in the editing list), again 409', async () => {
    const { body } = await add({ name: 'Closing Pack', unit_type: 'pack' })
    const res = await s.req('DELETE', `/api/admin/nearby/${body.id}`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.active).toBe(0)
    expect((await s.req('DELETE', `/api/admin/nearby/${body.id}`, { cookie: leader.cookie })).status).toBe(409)
    expect((await s.req('DELETE', '/api/admin/nearby/999999', { cookie: leader.cookie })).status).toBe(404)
    const list = (await s.req('GET', '/api/admin/nearby', { cookie: leader.cookie })).body.nearby
    expect(list.find((n: any) => n.id === body.id).active).toBe(0)
  })

  it('checks credentials: anonymous 401, member 403', async () => {
    expect((await s.req('GET', '/api/admin/nearby')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/nearby', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
  })
})
