// Join form, leads, the claim table, and mirror copies to a spreadsheet stand-in on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, eventually, expectDetail, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'
import { walkPages } from '../paging.ts'
import { encodeCursor } from '../../server/http/paging.ts'

let s: TestServer
// The spreadsheet endpoint we do not own: a real HTTP server that can be told to fail.
const sheet = { mode: 'ok' as 'ok' | 'fail' | 'hang', received: [] as any[] }
const spreadsheet = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    if (sheet.mode === 'hang') await Bun.sleep(60_000)
    if (sheet.mode === 'fail') return new Response('down for maintenance', { status: 503 })
    sheet.received.push(await req.json())
    return Response.json({ result: 'success' })
  },
})
// Loopback is a trusted proxy here, so each lead can come from its own forwarded address.
// The spreadsheet stand-in listens on loopback, which the service calls only when OUTBOUND_ALLOW names it.
beforeAll(async () => (s = await startServer({ TRUST_PROXY: '127.0.0.1/32', OUTBOUND_ALLOW: '127.0.0.1/32' })))
afterAll(async () => {
  await s.stop()
  spreadsheet.stop(true)
})

let joinCount = 0
const newLead = async (extra: Record<string, unknown> = {}) => {
  ++joinCount
  const res = await s.req('POST', '/api/join', {
    json: { parent_name: `Parent ${joinCount}`, email: `p${joinCount}@example.org`, unit: 'pack', ...extra },
    headers: { 'x-forwarded-for': `198.51.100.${joinCount}` },
  })
  if (res.status !== 201) throw new Error(`join failed ${res.status} ${res.text}`)
  return (await s.db.selectFrom('leads').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
}

describe('POST /api/join', () => {
  it('stores a lead from JSON (201) and from a form post (303 to the thanks page), and logs leads.create', async () => {
    await withServer({}, async (limited) => {
      const json = await limited.req('POST', '/api/join', {
        json: { parent_name: 'Ana Diaz', email: 'ANA@example.org', unit: 'troop', scout_grade: '6' },
      })
      expect(json.status).toBe(201)
      expect(json.body).toEqual({ received: true })
      const form = await limited.req('POST', '/api/join', {
        form: { parent_name: 'Bo Li', phone: '555-123-4567', unit: 'pack', website: '' },
      })
      expect(form.status).toBe(303)
      expect(form.headers.get('location')).toBe('/join/thanks/')
      const leads = await limited.db.selectFrom('leads').selectAll().orderBy('id').execute()
      expect(leads.map((l) => [l.parent_name, l.email, l.phone, l.unit])).toEqual([
        ['Ana Diaz', 'ana@example.org', null, 'troop'],
        ['Bo Li', null, '555-123-4567', 'pack'],
      ])
      expect((await limited.db.selectFrom('action_log').select('kind').where('kind', '=', 'leads.create').execute()).length).toBe(2)
    })
  })

  it('answers 422 with a clear message for a missing name, no way to reach the family, a bad email or unit, an unknown field', async () => {
    await withServer({}, async (limited) => {
      const cases: [Record<string, unknown>, string][] = [
        [{ email: 'a@example.org' }, 'parent_name'],
        [{ parent_name: 'A' }, 'email'],
        [{ parent_name: 'A', email: 'nope' }, 'email'],
        [{ parent_name: 'A', phone: 'call me' }, 'phone'],
        [{ parent_name: 'A', email: 'a@example.org', unit: 'crew' }, 'unit'],
      ]
      for (const [json, field] of cases) {
        const res = await limited.req('POST', '/api/join', { json })
        expect(res.status, JSON.stringify(json)).toBe(422)
        expect(res.body.detail).toContain(field)
      }
      expect((await limited.db.selectFrom('leads').select('id').execute()).length).toBe(0)
    })
  })

  it('accepts a filled honeypot silently and stores it as spam, not a lead', async () => {
    await withServer({}, async (limited) => {
      const res = await limited.req('POST', '/api/join', {
        json: { parent_name: 'Bot', email: 'bot@example.org', website: 'http://spam.example' },
      })
      expect(res.status).toBe(201)
      expect(res.body).toEqual({ received: true })
      expect((await limited.db.selectFrom('leads').select('id').execute()).length).toBe(0)
      expect((await limited.db.selectFrom('join_spam').select('id').execute()).length).toBe(1)
    })
  })

  it('slows an address down after 5 sign-ups in 10 minutes (429 with Retry-After)', async () => {
    await withServer({}, async (limited) => {
      const statuses = []
      for (let i = 0; i < 6; i++)
        statuses.push((await limited.req('POST', '/api/join', { json: { parent_name: `P${i}`, email: `p${i}@example.org` } })).status)
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
      const res = await limited.req('POST', '/api/join', { json: { parent_name: 'P', email: 'p@example.org' } })
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    })
  })

  it('counts an IPv6 sender by its /64: six addresses of one /64 are one sender', async () => {
    await withServer({ TRUST_PROXY: '127.0.0.1/32' }, async (limited) => {
      const send = (from: string, i: number) =>
        limited.req('POST', '/api/join', {
          json: { parent_name: `P${i}`, email: `p${i}@example.org` },
          headers: { 'x-forwarded-for': from },
        })
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await send(`2001:db8:1:2::${i + 1}`, i)).status)
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
      expect((await send('2001:db8:1:3::1', 7)).status).toBe(201)
    })
  })
})

describe('GET /api/admin/leads and /api/admin/leads/:id', () => {
  it('answers by credential: anonymous 401, member 403, leader, admin, break-glass and a scoped key 200', async () => {
    expect((await s.req('GET', '/api/admin/leads')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/leads', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    const leader = await s.as(ROLES.packLeader)
    expect((await s.req('GET', '/api/admin/leads', { cookie: leader.cookie })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/leads', { cookie: (await s.as(ROLES.admin)).cookie })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/leads', { token: ADMIN_TOKEN })).status).toBe(200)
    const { key } = await s.mintKey(leader.cookie, ['leads:read'])
    expect((await s.req('GET', '/api/admin/leads', { key })).status).toBe(200)
    expect((await s.req('GET', '/api/admin/summary')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/summary', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
  })

  it('searches name, email, phone and message; a miss is 200 with an empty list; newest first with paging', async () => {
    const leader = await s.as(ROLES.troopLeader)
    const a = await newLead({ parent_name: 'Zelda Quartermaine', message: 'Interested in camping' })
    const b = await newLead({ parent_name: 'Yusuf Quartz', phone: '555-0199' })
    const find = async (q: string) =>
      (await s.req('GET', `/api/admin/leads?q=${encodeURIComponent(q)}`, { cookie: leader.cookie })).body.leads.map((l: any) => l.id)
    expect(await find('quart')).toEqual([b, a])
    expect(await find('CAMPING')).toEqual([a])
    expect(await find('555-0199')).toEqual([b])
    expect(await find('%')).toEqual([])
    const miss = await s.req('GET', '/api/admin/leads?q=nobody-by-this-name', { cookie: leader.cookie })
    expect(miss.status).toBe(200)
    expect(miss.body.leads).toEqual([])
    const page1 = await s.req('GET', '/api/admin/leads?limit=1', { cookie: leader.cookie })
    expect(page1.body.leads[0].id).toBe(b)
    const page2 = await s.req('GET', `/api/admin/leads?limit=1&before_id=${page1.body.next_before_id}`, { cookie: leader.cookie })
    expect(page2.body.leads[0].id).toBe(a)
    // From the trigram index: accents ignored, query syntax inert, two characters by reading the leads.
    const c = await newLead({ parent_name: 'José Ñúñez-Ortiz', email: 'jose.nunez@example.org' })
    expect(await find('nunez-ortiz')).toEqual([c]) // only the name has it, written Ñúñez-Ortiz
    expect(await find('JOSÉ')).toEqual([c])
    expect(await find('ez-or')).toEqual([c])
    for (const q of ['"', 'nunez OR quart', 'nu*', '(quart', 'NEAR(a b)']) expect(await find(q), q).toEqual([])
    expect(await find('z-')).toEqual([c])
  })

  it('combines a search with unclaimed, mine and paging, from the index and from the leads alike', async () => {
    const leader = await s.as(ROLES.troopLeader)
    const ids = [] as number[]
    for (const n of [1, 2, 3, 4]) ids.push(await newLead({ parent_name: `Wilhelmina Vexley ${n}` }))
    for (const id of [ids[1], ids[3]])
      expect((await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: leader.cookie })).status).toBe(200)
    const page = async (params: string) =>
      (await s.req('GET', `/api/admin/leads?${params}`, { cookie: leader.cookie })).body as {
        leads: { id: number }[]
        next_before_id: number | null
      }
    const all = async (params: string) => {
      const found: number[] = []
      for (let p = await page(`${params}&limit=1`); ; p = await page(`${params}&limit=1&before_id=${p.next_before_id}`)) {
        found.push(...p.leads.map((l) => l.id))
        if (p.next_before_id === null) return found
      }
    }
    const newestFirst = (list: number[]) => [...list].reverse()
    // "vexley" is read from the trigram index; "x" (too short for a trigram) by reading the leads, and other
    // leads of this file have an x too.
    expect(await all('q=vexley')).toEqual(newestFirst(ids))
    expect(await all('q=vexley&filter=unclaimed')).toEqual(newestFirst([ids[0], ids[2]]))
    expect(await all('q=vexley&filter=mine')).toEqual(newestFirst([ids[1], ids[3]]))
    const unclaimed = await all('q=x&filter=unclaimed')
    expect(unclaimed).toEqual(expect.arrayContaining([ids[0], ids[2]]))
    expect(unclaimed).not.toContain(ids[1])
    expect(await all('q=x&filter=mine')).toEqual(newestFirst([ids[1], ids[3]]))
    // The cursor walks the same lists as the older before_id.
    const get = (path: string) => s.req('GET', path, { cookie: leader.cookie })
    const leadIds = (body: any) => body.leads.map((l: any) => l.id)
    for (const params of ['q=vexley', 'q=vexley&filter=unclaimed', 'q=vexley&filter=mine', 'q=x&filter=unclaimed', 'q=x', 'filter=all'])
      expect(await walkPages(get, `/api/admin/leads?${params}`, 1, leadIds), params).toEqual(await all(params))
  })

  it('pages with limit and cursor: every lead once while leads arrive, a cursor bound to its filters', async () => {
    const leader = await s.as(ROLES.packLeader)
    const get = (path: string) => s.req('GET', path, { cookie: leader.cookie })
    const leadIds = (body: any) => body.leads.map((l: any) => l.id)
    const before = (await get('/api/admin/leads?limit=1000')).body.leads.map((l: any) => l.id)
    expect(before.length).toBeGreaterThan(6)
    // New leads are newer than the cursor: the walk neither repeats nor loses one.
    expect(await walkPages(get, '/api/admin/leads', 3, leadIds, async () => void (await newLead()))).toEqual(before)
    const first = await get('/api/admin/leads?q=vexley&limit=1')
    const cursor = encodeURIComponent(first.body.next_cursor)
    expect((await get(`/api/admin/leads?q=vexley&limit=2&cursor=${cursor}`)).status).toBe(200)
    const other = await get(`/api/admin/leads?q=quart&cursor=${cursor}`)
    expectDetail(other, 422)
    expect(other.body.code).toBe('cursor_mismatch')
    // Not base64 JSON, not a position, or a position of the wrong shape for this list.
    for (const bad of ['garbage', '%7B%7D', encodeCursor('leads', {}, ['not an id']), encodeCursor('leads', {}, [])]) {
      const res = await get(`/api/admin/leads?cursor=${bad}`)
      expectDetail(res, 422)
      expect(res.body.code, bad).toBe('cursor_invalid')
    }
    expectDetail(await get('/api/admin/leads?limit=1001'), 422)
    expect((await get('/api/admin/leads?limit=1000')).status).toBe(200)
  })

  it('answers one lead, and 404 for an unknown id', async () => {
    const leader = await s.as(ROLES.packLeader)
    const id = await newLead({ parent_name: 'Detail Parent' })
    const res = await s.req('GET', `/api/admin/leads/${id}`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.lead).toMatchObject({ id, parent_name: 'Detail Parent', claimed_by: null })
    expect((await s.req('GET', '/api/admin/leads/999999', { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('GET', '/api/admin/leads/abc', { cookie: leader.cookie })).status).toBe(404)
  })
})

describe('lead claim table', () => {
  it('unclaimed → claim → claimed by caller, recording who and when; claimed → claim → 409 (holder or anyone else)', async () => {
    const a = await s.as(ROLES.packLeader)
    const b = await s.as(ROLES.troopLeader)
    const id = await newLead()
    const claim = await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: a.cookie })
    expect(claim.status).toBe(200)
    expect(claim.body.lead.claimed_by).toEqual({ id: a.id, email: a.email })
    expect(Date.parse(claim.body.lead.claimed_at)).toBeGreaterThan(Date.now() - 5000)
    const again = await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: a.cookie })
    expect([again.status, again.body.code]).toEqual([409, 'already_claimed'])
    const other = await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: b.cookie })
    expect([other.status, other.body.code]).toEqual([409, 'claimed_by_other'])
    const summary = await s.req('GET', '/api/admin/summary', { cookie: a.cookie })
    expect(summary.body.leads.claimed_by_me).toBe(1)
  })

  it('claimed → release by the holder → unclaimed; by someone else 403; by an owner (people:manage) 200; unclaimed → release 409', async () => {
    const holder = await s.as(ROLES.packLeader)
    const other = await s.as(ROLES.admin)
    const owner = await s.as(ROLES.owner)
    const id = await newLead({ parent_name: 'Release Table Parent' })
    await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: holder.cookie })
    expect((await s.req('POST', `/api/admin/leads/${id}/release`, { cookie: other.cookie })).status).toBe(403)
    const released = await s.req('POST', `/api/admin/leads/${id}/release`, { cookie: holder.cookie })
    expect(released.status).toBe(200)
    expect(released.body.lead.claimed_by).toBeNull()
    expect((await s.req('POST', `/api/admin/leads/${id}/release`, { cookie: holder.cookie })).status).toBe(409)
    await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: holder.cookie })
    expect((await s.req('POST', `/api/admin/leads/${id}/release`, { cookie: owner.cookie })).status).toBe(200)
    expect((await s.req('POST', '/api/admin/leads/999999/claim', { cookie: holder.cookie })).status).toBe(404)
    const kinds = (
      await s.db
        .selectFrom('action_log')
        .select('kind')
        .where('kind', 'like', 'leads.%')
        .where('summary', 'like', '%lead from Release Table Parent%')
        .where('kind', '!=', 'leads.create')
        .execute()
    ).map((k) => k.kind)
    expect(kinds).toEqual(['leads.claim', 'leads.release', 'leads.claim', 'leads.release'])
  })

  it('lets exactly one of two leaders claiming at the same moment win; the other gets 409', async () => {
    const a = await s.as(ROLES.packLeader)
    const b = await s.as(ROLES.troopLeader)
    for (let round = 0; round < 10; round++) {
      const id = await newLead()
      const [x, y] = await Promise.all([
        s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: a.cookie }),
        s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: b.cookie }),
      ])
      expect([x.status, y.status].sort()).toEqual([200, 409])
    }
  })

  it('refuses the break-glass token (403) and a member (403); a scoped key claims as its owner', async () => {
    const id = await newLead()
    expect((await s.req('POST', `/api/admin/leads/${id}/claim`, { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await s.req('POST', `/api/admin/leads/${id}/release`, { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await s.req('POST', `/api/admin/leads/${id}/claim`, { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    const leader = await s.as(ROLES.packLeader)
    const { key } = await s.mintKey(leader.cookie, ['leads:read'])
    const res = await s.req('POST', `/api/admin/leads/${id}/claim`, { key })
    expect(res.status).toBe(200)
    expect(res.body.lead.claimed_by.id).toBe(leader.id)
  })
})

describe('mirrors', () => {
  it('copies each new lead to the spreadsheet; a failing target never loses the lead; retry replays only failed copies', async () => {
    const admin = await s.as(ROLES.admin)
    expect(
      (
        await s.req('PUT', '/api/admin/settings/mirrors.spreadsheet_url', {
          cookie: admin.cookie,
          json: { value: `http://127.0.0.1:${spreadsheet.port}/exec` },
        })
      ).status,
    ).toBe(200)
    sheet.mode = 'ok'
    const okLead = await newLead({ parent_name: 'Copied Fine' })
    await eventually(async () => sheet.received.some((r) => r.id === okLead))
    expect(sheet.received.find((r) => r.id === okLead)).toMatchObject({ parent_name: 'Copied Fine', unit: 'pack' })

    sheet.mode = 'fail'
    const failedLead = await newLead({ parent_name: 'Sheet Was Down' })
    await eventually(async () =>
      (await s.req('GET', '/api/admin/mirrors/failed', { cookie: admin.cookie })).body.failed.some(
        (f: any) => f.lead_id === failedLead && f.status === 'failed',
      ),
    )
    const failed = (await s.req('GET', '/api/admin/mirrors/failed', { cookie: admin.cookie })).body.failed
    expect(failed.find((f: any) => f.lead_id === failedLead)).toMatchObject({
      target: 'spreadsheet',
      attempts: 1,
      error: 'The spreadsheet did not accept the copy',
    })
    expect(failed.some((f: any) => f.lead_id === okLead)).toBe(false)
    expect((await s.req('GET', `/api/admin/leads/${failedLead}`, { cookie: admin.cookie })).body.lead.parent_name).toBe('Sheet Was Down')
    expect((await s.req('GET', '/api/admin/summary', { cookie: admin.cookie })).body.failed_mirror_copies).toBeGreaterThanOrEqual(1)

    const stillDown = await s.req('POST', '/api/admin/mirrors/retry', { cookie: admin.cookie, json: { target: 'spreadsheet' } })
    expect(stillDown.status).toBe(200)
    expect(stillDown.body).toMatchObject({ attempted: 1, ok: 0, failed: 1 })

    sheet.mode = 'ok'
    const before = sheet.received.length
    const recovered = await s.req('POST', '/api/admin/mirrors/retry', { cookie: admin.cookie, json: { target: 'spreadsheet' } })
    expect(recovered.body).toMatchObject({ attempted: 1, ok: 1, failed: 0 })
    expect(sheet.received.slice(before).map((r) => r.id)).toEqual([failedLead])
    expect((await s.req('GET', '/api/admin/mirrors/failed', { cookie: admin.cookie })).body.failed).toEqual([])
    const nothingOwed = await s.req('POST', '/api/admin/mirrors/retry', { cookie: admin.cookie, json: { target: 'spreadsheet' } })
    expect(nothingOwed.status).toBe(200)
    expect(nothingOwed.body.attempted).toBe(0)
    expect(sheet.received.length).toBe(before + 1)
    expect(
      (await s.db.selectFrom('action_log').select('actor').where('kind', '=', 'mirrors.retry').execute()).every(
        (e) => e.actor === admin.email,
      ),
    ).toBe(true)
  })

  it('does not delay the join form while the target hangs', async () => {
    sheet.mode = 'hang'
    const started = Date.now()
    await newLead({ parent_name: 'Quick Answer' })
    expect(Date.now() - started).toBeLessThan(1000)
    sheet.mode = 'ok'
  })

  it('answers 422 for the notification target and an unknown target; member 403', async () => {
    const admin = await s.as(ROLES.admin)
    expect((await s.req('POST', '/api/admin/mirrors/retry', { cookie: admin.cookie, json: { target: 'notification' } })).status).toBe(422)
    expect((await s.req('POST', '/api/admin/mirrors/retry', { cookie: admin.cookie, json: { target: 'fax' } })).status).toBe(422)
    expect(
      (await s.req('POST', '/api/admin/mirrors/retry', { cookie: (await s.as(ROLES.member)).cookie, json: { target: 'spreadsheet' } }))
        .status,
    ).toBe(403)
    expect((await s.req('GET', '/api/admin/mirrors/failed', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
  })
})
