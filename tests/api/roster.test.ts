// Roster: households (fields or an imported lead with its scout), linked accounts, scouts, the yearly checklist, the
// family view and CSV; search, filters, sort and counts over a roster at real size.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { healthFormUntil } from '../../server/roster/health-form.ts'
import { programYear } from '../../server/roster/queries.ts'
import { addDays, today } from '../dates.ts'
import { encodeCursor } from '../../server/http/paging.ts'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'
import { seedRoster } from '../households.ts'
import { walkPages } from '../paging.ts'

let s: TestServer
let leader: { id: number; email: string; cookie: string }
let pack: number
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
  pack = (await s.db.selectFrom('units').select('id').where('slug', '=', 'pack').executeTakeFirstOrThrow()).id
})
afterAll(() => s.stop())

const household = (json: Record<string, unknown>, cookie = leader.cookie) => s.req('POST', '/api/admin/roster/households', { cookie, json })
const scout = (householdId: number, json: Record<string, unknown>, cookie = leader.cookie) =>
  s.req('POST', `/api/admin/roster/households/${householdId}/scouts`, { cookie, json })

describe('POST /api/admin/roster/households', () => {
  it('creates from fields (201), 422 without parent_name or with a bad email or unknown field', async () => {
    const res = await household({ parent_name: 'Casey Park', email: 'casey@example.org', phone: '555 123 4567', second_parent: 'Jo Park' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ parent_name: 'Casey Park', active: true, scouts: [], people: [] })
    expect((await household({ email: 'x@example.org' })).status).toBe(422)
    expect((await household({ parent_name: '  ' })).status).toBe(422)
    expect((await household({ parent_name: 'X', email: 'nope' })).status).toBe(422)
    expect((await household({ parent_name: 'X', colour: 'red' })).status).toBe(422)
  })

  it('imports a lead with lead_id alone: copied and linked, the lead unchanged; again 409; unknown 422', async () => {
    await s.req('POST', '/api/join', { json: { parent_name: 'Lead Parent', email: 'lead@example.org', message: 'Two kids' } })
    const lead = await s.db.selectFrom('leads').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    const res = await household({ lead_id: lead.id })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ parent_name: 'Lead Parent', email: 'lead@example.org', notes: 'Two kids', lead_id: lead.id })
    expect(await s.db.selectFrom('leads').selectAll().where('id', '=', lead.id).executeTakeFirstOrThrow()).toEqual(lead)
    expect((await household({ lead_id: lead.id })).status).toBe(409)
    expect((await household({ lead_id: 999999 })).status).toBe(422)
    expect((await household({ lead_id: lead.id, parent_name: 'Both' })).status).toBe(422)
  })

  it('checks credentials: anonymous 401, member 403, break-glass 403', async () => {
    expect((await s.req('POST', '/api/admin/roster/households', { json: { parent_name: 'X' } })).status).toBe(401)
    expect((await household({ parent_name: 'X' }, (await s.as(ROLES.member)).cookie)).status).toBe(403)
    expect((await s.req('POST', '/api/admin/roster/households', { token: ADMIN_TOKEN, json: { parent_name: 'X' } })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/roster', { token: ADMIN_TOKEN })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/roster', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
  })
})

describe('households and scouts', () => {
  it("keeps a second parent's email: created, edited, searched, cleared; 422 when it is not an address", async () => {
    const second = uniqueEmail('jo-park')
    const res = await household({
      parent_name: 'Casey Parkes',
      email: uniqueEmail('casey'),
      second_parent: 'Jo Parkes',
      second_email: second,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ second_parent: 'Jo Parkes', second_email: second })
    const found = await s.req('GET', `/api/admin/roster?q=${encodeURIComponent(second)}`, { cookie: leader.cookie })
    expect(found.body.households.map((h: { id: number }) => h.id)).toEqual([res.body.id])
    const path = `/api/admin/roster/households/${res.body.id}`
    expect((await s.req('PATCH', path, { cookie: leader.cookie, json: { second_email: 'not an address' } })).status).toBe(422)
    const cleared = await s.req('PATCH', path, { cookie: leader.cookie, json: { second_email: null } })
    expect(cleared.status).toBe(200)
    expect(cleared.body.second_email).toBeNull()
  })

  it('gets, edits and deactivates a household; unknown 404', async () => {
    const { body } = await household({ parent_name: 'Dana Reyes' })
    expect((await s.req('GET', `/api/admin/roster/households/${body.id}`, { cookie: leader.cookie })).body.parent_name).toBe('Dana Reyes')
    const edited = await s.req('PATCH', `/api/admin/roster/households/${body.id}`, {
      cookie: leader.cookie,
      json: { phone: '555-000-1111', active: false },
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ phone: '555-000-1111', active: false })
    expect(
      (await s.req('PATCH', `/api/admin/roster/households/${body.id}`, { cookie: leader.cookie, json: { colour: 'red' } })).status,
    ).toBe(422)
    expect((await s.req('GET', '/api/admin/roster/households/999999', { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('PATCH', '/api/admin/roster/households/999999', { cookie: leader.cookie, json: { notes: 'x' } })).status).toBe(404)
  })

  it('writes and logs only what differs: the dialog sends every field, and linking an account is not a change of them', async () => {
    const { body } = await household({ parent_name: 'Ada Quinn', phone: '555-000-2222', email: 'ada@example.org' })
    const patch = (json: object) => s.req('PATCH', `/api/admin/roster/households/${body.id}`, { cookie: leader.cookie, json })
    const before = (await s.lastLog('roster.household_update'))?.id ?? 0
    expect((await patch({ parent_name: 'Ada Quinn', phone: '555-000-2222', email: 'ada@example.org', notes: null })).status).toBe(200)
    expect((await s.lastLog('roster.household_update'))?.id ?? 0).toBe(before)
    expect((await patch({ parent_name: 'Ada Quinn', phone: '555-000-3333', email: 'ada@example.org' })).status).toBe(200)
    expect((await s.lastLog('roster.household_update')).summary).toBe("Ada Quinn's household changed: phone")
    expect((await patch({ active: false, notes: 'moved away' })).status).toBe(200)
    expect((await s.lastLog('roster.household_update')).summary).toBe("Ada Quinn's household made inactive; changed: notes")
  })

  it('adds and edits scouts: org_member_id 6 to 12 digits, unit_id must exist', async () => {
    const { body } = await household({ parent_name: 'Eli Stone' })
    const res = await scout(body.id, { first_name: 'Mia', last_name: 'Stone', unit_id: pack, den: 'Wolf', org_member_id: '12345678' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ first_name: 'Mia', unit_id: pack, den: 'Wolf' })
    for (const org_member_id of ['12345', '1234567890123', '12ab5678'])
      expect((await scout(body.id, { first_name: 'X', unit_id: pack, org_member_id })).status).toBe(422)
    expect((await scout(body.id, { first_name: 'X', unit_id: 999 })).status).toBe(422)
    expect((await scout(body.id, { unit_id: pack })).status).toBe(422)
    expect((await scout(999999, { first_name: 'X', unit_id: pack })).status).toBe(404)
    const edited = await s.req('PATCH', `/api/admin/roster/scouts/${res.body.id}`, { cookie: leader.cookie, json: { den: 'Bear' } })
    expect(edited.status).toBe(200)
    expect(edited.body.den).toBe('Bear')
    expect(
      (await s.req('PATCH', `/api/admin/roster/scouts/${res.body.id}`, { cookie: leader.cookie, json: { org_member_id: 'abc' } })).status,
    ).toBe(422)
    expect(
      (await s.req('PATCH', `/api/admin/roster/scouts/${res.body.id}`, { cookie: leader.cookie, json: { unit_id: 999 } })).status,
    ).toBe(422)
    expect((await s.req('PATCH', '/api/admin/roster/scouts/999999', { cookie: leader.cookie, json: { den: 'x' } })).status).toBe(404)
  })

  it('records dues and health_form checks with who and when, 422 for another item', async () => {
    const { body } = await household({ parent_name: 'Finn Ward' })
    const kid = (await scout(body.id, { first_name: 'Ada', unit_id: pack })).body
    const res = await s.req('PUT', `/api/admin/roster/scouts/${kid.id}/checks/dues`, {
      cookie: leader.cookie,
      json: { done: true, note: 'paid cash' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      item: 'dues',
      done: true,
      note: 'paid cash',
      recorded_by: leader.email,
      year: (await programYear(s.db)).year,
    })
    expect(
      (await s.req('PUT', `/api/admin/roster/scouts/${kid.id}/checks/health_form`, { cookie: leader.cookie, json: { done: true } })).status,
    ).toBe(200)
    expect(
      (await s.req('PUT', `/api/admin/roster/scouts/${kid.id}/checks/allergies`, { cookie: leader.cookie, json: { done: true } })).status,
    ).toBe(422)
    expect(
      (await s.req('PUT', `/api/admin/roster/scouts/${kid.id}/checks/dues`, { cookie: leader.cookie, json: { done: 'yes' } })).status,
    ).toBe(422)
    expect(
      (await s.req('PUT', `/api/admin/roster/scouts/999999/checks/dues`, { cookie: leader.cookie, json: { done: true } })).status,
    ).toBe(404)
    const roster = await s.req('GET', '/api/admin/roster?unit=pack', { cookie: leader.cookie })
    const row = roster.body.households.find((h: any) => h.id === body.id).scouts[0]
    expect(row.checks.dues).toMatchObject({ done: true, note: 'paid cash', recorded_by: leader.email })
    expect(row.checks.health_form.done).toBe(true)
    const log = await s.lastLog('roster.check')
    expect(log.actor).toBe(leader.email)
  })

  it('lists by unit (slug or id) with dens; unknown unit 404', async () => {
    const troopLeader = await s.as(ROLES.troopLeader)
    const { body } = await household({ parent_name: 'Gale Troop' }, troopLeader.cookie)
    const troop = (await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()).id
    expect((await scout(body.id, { first_name: 'Tom', unit_id: troop, den: 'Eagle Patrol' }, troopLeader.cookie)).status).toBe(201)
    const byTroop = await s.req('GET', `/api/admin/roster?unit=${troop}`, { cookie: leader.cookie })
    expect(byTroop.body.households.map((h: any) => h.parent_name)).toEqual(['Gale Troop'])
    expect(byTroop.body.dens).toEqual(['Eagle Patrol'])
    const byPack = await s.req('GET', '/api/admin/roster?unit=pack', { cookie: leader.cookie })
    expect(byPack.body.households.some((h: any) => h.parent_name === 'Gale Troop')).toBe(false)
    expect(byPack.body.dens).toContain('Bear')
    expect((await s.req('GET', '/api/admin/roster?unit=crew', { cookie: leader.cookie })).status).toBe(404)
  })

  it('defuses formulas in the CSV also after leading blanks', async () => {
    const h = (await household({ parent_name: ' =HYPERLINK("http://evil.example")', second_parent: ' +SUM(A1)', notes: 'x' })).body.id
    expect((await scout(h, { first_name: '@cmd', last_name: '  -2+3', unit_id: pack })).status).toBe(201)
    const res = await s.req('GET', '/api/admin/roster/export?unit=pack', { cookie: leader.cookie })
    const cells = res.text.match(/"(?:[^"]|"")*"/g)!.map((c) => c.slice(1, -1).replaceAll('""', '"'))
    // Names are stored trimmed; the other fields keep their blanks. Every one of them comes out defused.
    for (const defused of [`'=HYPERLINK("http://evil.example")`, "' +SUM(A1)", "'@cmd", "'  -2+3"]) expect(cells).toContain(defused)
    expect(cells.filter((c) => /^\s*[=+\-@]/.test(c))).toEqual([])
  })

  it('exports the roster as CSV', async () => {
    const res = await s.req('GET', '/api/admin/roster/export?unit=pack', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const lines = res.text.trim().split('\r\n')
    expect(lines[0]).toStartWith('first_name,last_name,unit,den')
    // Dues, health form, its last day; then this program year's nights, hours and miles, and the last day Ada came.
    expect(lines.some((l) => l.includes('"Ada"') && l.endsWith('"yes","yes","","0","0","0",""'))).toBe(true)
  })
})

describe('PUT /api/admin/roster/households/:id/people and GET /api/admin/family', () => {
  it('links accounts (full list); 422 for an unknown person; 403 for a member, the break-glass token and a key without people:invite_leader', async () => {
    const { body } = await household({ parent_name: 'Hana Cole' })
    const parent = await s.as(ROLES.member)
    const res = await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, {
      cookie: leader.cookie,
      json: { person_ids: [parent.id] },
    })
    expect(res.status).toBe(200)
    expect(res.body.people.map((p: any) => p.email)).toEqual([parent.email])
    expect(
      (await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, { cookie: leader.cookie, json: { person_ids: [999999] } }))
        .status,
    ).toBe(422)
    expect(
      (await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, { cookie: parent.cookie, json: { person_ids: [] } })).status,
    ).toBe(403)
    expect(
      (await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, { token: ADMIN_TOKEN, json: { person_ids: [] } })).status,
    ).toBe(403)
    const admin = await s.as(ROLES.admin)
    const { key } = await s.mintKey(admin.cookie, ['roster:write'])
    expect((await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, { key, json: { person_ids: [] } })).status).toBe(403)
  })

  it('lets a leader link accounts only to households with a scout in a unit they lead (or none yet); admins any', async () => {
    const troop = (await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()).id
    const parent = await s.person(ROLES.member)
    const link = (id: number, cookie: string) =>
      s.req('PUT', `/api/admin/roster/households/${id}/people`, { cookie, json: { person_ids: [parent.id] } })
    const admin = await s.as(ROLES.admin)
    const troopFamily = (await household({ parent_name: 'Troop Only' })).body.id
    expect((await scout(troopFamily, { first_name: 'Tess', unit_id: troop }, admin.cookie)).status).toBe(201)
    const both = (await household({ parent_name: 'Both Units' })).body.id
    expect((await scout(both, { first_name: 'Pia', unit_id: pack })).status).toBe(201)
    expect((await scout(both, { first_name: 'Tom', unit_id: troop }, admin.cookie)).status).toBe(201)
    const empty = (await household({ parent_name: 'No Scouts Yet' })).body.id

    const refused = await link(troopFamily, leader.cookie)
    expect(refused.status).toBe(403)
    expect(await s.db.selectFrom('household_people').select('person_id').where('household_id', '=', troopFamily).execute()).toEqual([])
    expect((await link(both, leader.cookie)).status).toBe(200)
    expect((await link(empty, leader.cookie)).status).toBe(200)
    expect((await link(troopFamily, (await s.as(ROLES.troopLeader)).cookie)).status).toBe(200)
    expect((await link(troopFamily, (await s.as(ROLES.admin)).cookie)).status).toBe(200)
  })

  it("shows a family their own active household, scouts, dens and this year's checklist; an unlinked account gets none", async () => {
    const parent = await s.as(ROLES.member)
    const { body } = await household({ parent_name: 'Ivy Lane', notes: 'leader-only note' })
    const kid = (await scout(body.id, { first_name: 'Leo', unit_id: pack, den: 'Tiger' })).body
    await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, { cookie: leader.cookie, json: { person_ids: [parent.id] } })
    await s.req('PUT', `/api/admin/roster/scouts/${kid.id}/checks/dues`, { cookie: leader.cookie, json: { done: true } })
    const family = await s.req('GET', '/api/admin/family', { cookie: parent.cookie })
    expect(family.status).toBe(200)
    expect(family.body.households.length).toBe(1)
    const scoutView = family.body.households[0].scouts[0]
    expect(scoutView).toMatchObject({ first_name: 'Leo', den: 'Tiger' })
    expect(scoutView.checks.dues.done).toBe(true)
    expect(scoutView.checks.health_form.done).toBe(false)
    expect(JSON.stringify(family.body)).not.toContain('leader-only note')
    const stranger = await s.as(ROLES.member)
    expect((await s.req('GET', '/api/admin/family', { cookie: stranger.cookie })).body.households).toEqual([])
    await s.req('PATCH', `/api/admin/roster/households/${body.id}`, { cookie: leader.cookie, json: { active: false } })
    expect((await s.req('GET', '/api/admin/family', { cookie: parent.cookie })).body.households).toEqual([])
    expect((await s.req('GET', '/api/admin/family')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/family', { token: ADMIN_TOKEN })).status).toBe(403)
  })
})

describe('health forms by the date on them', () => {
  const check = (id: number, json: Record<string, unknown>) =>
    s.req('PUT', `/api/admin/roster/scouts/${id}/checks/health_form`, { cookie: leader.cookie, json })

  it('keeps the date on the form, current for 12 months from it, also from an earlier program year; 422 for a bad date', async () => {
    const parent = await s.as(ROLES.member)
    const { body } = await household({ parent_name: 'Mira Stone' })
    await s.req('PUT', `/api/admin/roster/households/${body.id}/people`, { cookie: leader.cookie, json: { person_ids: [parent.id] } })
    const [fresh, old, lastYear] = await Promise.all(['Noa', 'Eli', 'Kit'].map((n) => scout(body.id, { first_name: n, unit_id: pack })))
    const recent = addDays(today(), -30)
    const recorded = await check(fresh.body.id, { done: true, form_date: recent })
    expect(recorded.status).toBe(200)
    expect(recorded.body).toMatchObject({ item: 'health_form', done: true, form_date: recent })
    expect((await s.lastLog('roster.check')).summary).toContain(`health form dated ${recent}`)
    expect((await check(old.body.id, { done: true, form_date: addDays(today(), -400) })).status).toBe(200)
    // Handed in last program year, dated two months ago: still current though this year's box is unticked.
    const { year } = await programYear(s.db)
    const lastYearDate = addDays(today(), -60)
    await s.db
      .insertInto('checks')
      .values({
        scout_id: lastYear.body.id,
        year: year - 1,
        item: 'health_form',
        done: 1,
        note: null,
        form_date: lastYearDate,
        recorded_by: leader.email,
        recorded_at: new Date().toISOString(),
      })
      .execute()

    const family = await s.req('GET', '/api/admin/family', { cookie: parent.cookie })
    const form = (name: string) => family.body.households[0].scouts.find((sc: any) => sc.first_name === name).checks.health_form
    expect(form('Noa')).toMatchObject({ done: true, form_date: recent, expires_on: healthFormUntil(recent), current: true })
    expect(form('Eli')).toMatchObject({ done: true, current: false, expires_on: healthFormUntil(addDays(today(), -400)) })
    expect(form('Kit')).toMatchObject({ done: false, form_date: lastYearDate, current: true })

    const before = await s.db.selectFrom('checks').selectAll().orderBy('scout_id').execute()
    expect((await check(fresh.body.id, { done: true, form_date: addDays(today(), 3) })).body.detail).toContain('future')
    expect((await check(fresh.body.id, { done: false, form_date: recent })).status).toBe(422)
    expect((await check(fresh.body.id, { done: true, form_date: '2026-02-30' })).status).toBe(422)
    const dues = await s.req('PUT', `/api/admin/roster/scouts/${fresh.body.id}/checks/dues`, {
      cookie: leader.cookie,
      json: { done: true, form_date: recent },
    })
    expect(dues.status).toBe(422)
    expect(await s.db.selectFrom('checks').selectAll().orderBy('scout_id').execute()).toEqual(before)

    const csv = await s.req('GET', '/api/admin/roster/export?unit=pack', { cookie: leader.cookie })
    expect(csv.text).toContain('health_form_until')
    expect(csv.text).toContain(healthFormUntil(recent))
  })
})

describe("a leader and another unit's family", () => {
  let troop: number
  let troopLeader: { cookie: string }
  let packFamily: number
  let packScout: number
  beforeAll(async () => {
    troop = (await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()).id
    troopLeader = await s.as(ROLES.troopLeader)
    packFamily = (await household({ parent_name: 'Pack Family' })).body.id
    packScout = (await scout(packFamily, { first_name: 'Pip', unit_id: pack })).body.id
  })

  it('refuses a troop leader a decoy troop scout in a pack household (403), so linking an account and reading the family stays refused', async () => {
    const decoy = await scout(packFamily, { first_name: 'Decoy', unit_id: troop }, troopLeader.cookie)
    expect(decoy.status).toBe(403)
    const attacker = await s.as(ROLES.member)
    const link = await s.req('PUT', `/api/admin/roster/households/${packFamily}/people`, {
      cookie: troopLeader.cookie,
      json: { person_ids: [attacker.id] },
    })
    expect(link.status).toBe(403)
    expect((await s.req('GET', '/api/admin/family', { cookie: attacker.cookie })).body.households).toEqual([])
    expect(
      (await s.db.selectFrom('scouts').select('first_name').where('household_id', '=', packFamily).execute()).map((r) => r.first_name),
    ).toEqual(['Pip'])
  })

  it("refuses moving a scout out of or into a unit the leader does not lead, editing another unit's scout, household or checklist (403)", async () => {
    const patchScout = (id: number, json: Record<string, unknown>, cookie: string) =>
      s.req('PATCH', `/api/admin/roster/scouts/${id}`, { cookie, json })
    expect((await patchScout(packScout, { unit_id: troop }, troopLeader.cookie)).status).toBe(403)
    expect((await patchScout(packScout, { den: 'Wolf' }, troopLeader.cookie)).status).toBe(403)
    expect((await patchScout(packScout, { unit_id: troop }, leader.cookie)).status).toBe(403)
    expect(
      (await s.req('PATCH', `/api/admin/roster/households/${packFamily}`, { cookie: troopLeader.cookie, json: { email: 'x@example.org' } }))
        .status,
    ).toBe(403)
    expect(
      (await s.req('PUT', `/api/admin/roster/scouts/${packScout}/checks/dues`, { cookie: troopLeader.cookie, json: { done: true } }))
        .status,
    ).toBe(403)
    const kept = await s.db.selectFrom('scouts').select(['unit_id', 'den']).where('id', '=', packScout).executeTakeFirstOrThrow()
    expect(kept).toEqual({ unit_id: pack, den: null })
  })

  it('keeps a household with no scouts yet to the leader who added it: another unit’s leader can neither link accounts to it nor claim it with a decoy (403)', async () => {
    const attacker = await s.as(ROLES.member)
    const fresh = (await household({ parent_name: 'Quinn Newpack' })).body.id
    const link = await s.req('PUT', `/api/admin/roster/households/${fresh}/people`, {
      cookie: troopLeader.cookie,
      json: { person_ids: [attacker.id] },
    })
    expect(link.status).toBe(403)
    expect(link.body.detail).toContain('another leader added it')
    expect((await scout(fresh, { first_name: 'Decoy', unit_id: troop }, troopLeader.cookie)).status).toBe(403)
    // The pack leader goes on as if nothing happened, and the family stays closed to the troop leader's account.
    expect((await scout(fresh, { first_name: 'Quincy', unit_id: pack })).status).toBe(201)
    expect((await s.req('GET', '/api/admin/family', { cookie: attacker.cookie })).body.households).toEqual([])
  })

  it('lets a leader keep scouts within their units, in households of theirs or with no scouts yet; an admin anywhere', async () => {
    const empty = (await household({ parent_name: 'New Family' }, troopLeader.cookie)).body.id
    const tess = await scout(empty, { first_name: 'Tess', unit_id: troop }, troopLeader.cookie)
    expect(tess.status).toBe(201)
    expect(
      (await s.req('PATCH', `/api/admin/roster/scouts/${tess.body.id}`, { cookie: troopLeader.cookie, json: { den: 'Hawk Patrol' } }))
        .status,
    ).toBe(200)
    expect(
      (await s.req('PATCH', `/api/admin/roster/households/${empty}`, { cookie: troopLeader.cookie, json: { phone: '555 0100' } })).status,
    ).toBe(200)
    const admin = await s.as(ROLES.admin)
    expect((await s.req('PATCH', `/api/admin/roster/scouts/${packScout}`, { cookie: admin.cookie, json: { unit_id: troop } })).status).toBe(
      200,
    )
    expect((await s.req('PATCH', `/api/admin/roster/scouts/${packScout}`, { cookie: admin.cookie, json: { unit_id: pack } })).status).toBe(
      200,
    )
  })
})

describe('a large roster', () => {
  it('answers 33,000 households, each with its scouts, in and out of a unit', async () => {
    const now = new Date().toISOString()
    const { id: unit_id } = await s.db.selectFrom('units').select('id').where('slug', '=', 'troop').executeTakeFirstOrThrow()
    const first =
      (
        await s.db
          .selectFrom('households')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0
    for (let i = 0; i < 33_000; i += 1000)
      await s.db
        .insertInto('households')
        .values(Array.from({ length: 1000 }, (_, j) => ({ parent_name: `Bulk ${i + j}`, active: 1, created_at: now, updated_at: now })))
        .execute()
    const last = await s.db.selectFrom('households').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()
    await s.db
      .insertInto('scouts')
      .values({ household_id: last.id, first_name: 'Bulk', unit_id, created_at: now, updated_at: now })
      .execute()
    const res = await s.req('GET', '/api/admin/roster?unit=troop', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.households.some((h: any) => h.id === last.id && h.scouts[0].first_name === 'Bulk')).toBe(true)
    const all = await s.req('GET', '/api/admin/roster', { cookie: leader.cookie })
    expect(all.body.households.filter((h: any) => h.id > first).length).toBe(33_000)
    await s.db.deleteFrom('scouts').where('household_id', '>', first).execute()
    await s.db.deleteFrom('households').where('id', '>', first).execute()
  }, 120_000)
})

describe('programYear', () => {
  it('starts in the month of roster.year_start_month', async () => {
    expect((await programYear(s.db, new Date('2026-07-15T12:00:00Z'))).year).toBe(2025)
    expect((await programYear(s.db, new Date('2026-08-15T12:00:00Z'))).year).toBe(2026)
    expect((await programYear(s.db, new Date('2026-08-15T12:00:00Z'))).label).toBe('2026–27')
  })
})

describe('GET /api/admin/roster: search, filters, sort and counts over 60 households', () => {
  let r: TestServer
  let cookie: string
  let seeded: Awaited<ReturnType<typeof seedRoster>>
  beforeAll(async () => {
    r = await startServer()
    cookie = (await r.as(ROLES.packLeader)).cookie
    seeded = await seedRoster(r, 60)
  })
  afterAll(() => r.stop())

  const get = (query = '', as: { cookie?: string; token?: string } = { cookie }) => r.req('GET', `/api/admin/roster${query}`, as)
  const parents = (res: { body: any }) => res.body.households.map((h: any) => h.parent_name)

  it('answers every household with the counts, active first, by sort name (else the last name past a suffix), then parent', async () => {
    const res = await get()
    expect(res.status).toBe(200)
    expect(res.body.counts).toEqual(seeded.counts)
    expect(res.body.counts).toMatchObject({ households: 60, scouts: 90 })
    expect(res.body.next_cursor).toBeNull() // without limit or cursor: every household, no paging
    expect(res.headers.get('link')).toBeNull()
    const names: string[] = parents(res)
    expect(names.at(-1)).toBe('Paula Young') // inactive, so last
    expect(names.slice(0, 3)).toEqual(['Marcus Abbott', 'Diego Alvarez', 'Hannah Bailey'])
    const at = (name: string) => names.indexOf(name)
    // "María de la Cruz" sorts by the sort name set for her; "Anneke van Dijk" by her last word; "Ray Washington Jr." by Washington.
    expect(at('Jordan Dalton')).toBeLessThan(at('María de la Cruz'))
    expect(at('María de la Cruz')).toBeLessThan(at('Anneke van Dijk'))
    expect(at('Anneke van Dijk')).toBeLessThan(at('Patrick Donovan'))
    expect(at('Kiri Walker')).toBeLessThan(at('Ray Washington Jr.'))
    expect(at('Ray Washington Jr.')).toBeLessThan(at('Zainab Yusuf'))
    // Accents sort with their letter: Côté among the C's.
    expect(at('Renée Côté')).toBeGreaterThan(at('Mei Chen'))
    expect(at('Renée Côté')).toBeLessThan(at('Jordan Dalton'))
    expect(res.body.den_units.map((d: any) => `${d.unit_slug} ${d.den} ${d.scouts}`)).toEqual([
      'pack Arrow of Light 10',
      'pack Bear 10',
      'pack Lion 10',
      'pack Tiger 10',
      'pack Webelos 10',
      'pack Wolf 10',
      'troop Eagle Patrol 10',
      'troop Fox Patrol 10',
      'troop Hawk Patrol 10',
    ])
  })

  it('sorts by the sort name a leader sets (PATCH sort_name), and by the last name again once it is cleared', async () => {
    const hale = (await get('?q=hale')).body.households[0]
    const patch = (sort_name: string | null) => r.req('PATCH', `/api/admin/roster/households/${hale.id}`, { cookie, json: { sort_name } })
    const set = await patch('Aardvark')
    expect(set.status).toBe(200)
    expect(set.body.sort_name).toBe('Aardvark')
    expect(parents(await get())[0]).toBe('Robin Hale')
    expect((await patch('x'.repeat(101))).status).toBe(422)
    expect((await patch(null)).body.sort_name).toBeNull()
    expect(parents(await get())[0]).toBe('Marcus Abbott')
  })

  it('searches parents, second parents, scouts (preferred names too), email and phone digits, case and accents aside', async () => {
    for (const [q, expected] of [
      ['côté', ['Renée Côté']],
      ['COTE', ['Renée Côté']],
      ['renee chloe', ['Renée Côté']], // every word: the parent and her scout
      // Every Nadia goes by Dee.
      ['dee', seeded.households.filter((h) => h.scouts.some((sc) => sc.preferred_name === 'Dee')).map((h) => h.parent_name)],
      ['maria.delacruz@', ['María de la Cruz']],
      ['555 101 1379', ['Renée Côté']],
      ['(555) 101-1379', ['Renée Côté']],
      ['1011379', ['Renée Côté']],
      ['nobody-here', []],
    ] as [string, string[]][]) {
      const res = await get(`?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(200)
      expect(parents(res).sort(), q).toEqual([...expected].sort())
      expect(res.body.counts.households).toBe(expected.length)
    }
    const second = seeded.households.find((h) => h.second_parent)!
    expect(parents(await get(`?q=${encodeURIComponent(second.second_parent!)}`))).toContain(second.parent_name)
    const hale = await get('?q=hale')
    expect(hale.body.counts).toEqual({
      households: 1,
      scouts: 1,
      dues_unpaid: hale.body.households[0].scouts.filter((s: any) => !s.checks.dues.done).length,
      health_missing: expect.any(Number),
    })
  })

  it('narrows to a den or patrol, to unpaid dues and to missing or expiring health forms, each with the right count', async () => {
    const wolf = await get('?den=Wolf')
    expect(wolf.status).toBe(200)
    expect(wolf.body.counts.scouts).toBe(10)
    expect(wolf.body.households.every((h: any) => h.scouts.length && h.scouts.every((s: any) => s.den === 'Wolf'))).toBe(true)
    expect(wolf.body.counts.households).toBe(wolf.body.households.length)
    expect((await get('?den=wolf')).body.counts.scouts).toBe(0) // the exact name

    const eagle = await get('?den=Eagle%20Patrol&unit=troop')
    expect(eagle.body.counts.scouts).toBe(10)
    expect(eagle.body.dens).toEqual(['Eagle Patrol', 'Fox Patrol', 'Hawk Patrol'])

    const unpaid = await get('?dues=unpaid')
    expect(unpaid.body.counts.scouts).toBe(seeded.counts.dues_unpaid)
    expect(unpaid.body.counts.dues_unpaid).toBe(seeded.counts.dues_unpaid)
    expect(unpaid.body.households.every((h: any) => h.active && h.scouts.every((s: any) => !s.checks.dues.done))).toBe(true)

    const health = await get('?health=missing')
    expect(health.body.counts.scouts).toBe(seeded.counts.health_missing)
    expect(health.body.counts.health_missing).toBe(seeded.counts.health_missing)
    const soon = addDays(today(), 30)
    for (const s of health.body.households.flatMap((h: any) => h.scouts))
      expect(!s.checks.health_form.current || s.checks.health_form.expires_on <= soon).toBe(true)
    // Some are current still, but run out within the month.
    expect(health.body.households.some((h: any) => h.scouts.some((s: any) => s.checks.health_form.current))).toBe(true)

    const both = await get('?unit=pack&dues=unpaid&health=missing')
    const expected = seeded.households
      .filter((h) => h.active)
      .flatMap((h) => h.scouts)
      .filter((s) => s.unit === 'pack' && !s.dues && s.health !== 'current')
    expect(both.body.counts.scouts).toBe(expected.length)
    expect(both.body.households.flatMap((h: any) => h.scouts.map((s: any) => s.first_name)).sort()).toEqual(
      expected.map((s) => s.first_name).sort(),
    )
    const searched = await get('?q=hale&dues=unpaid')
    expect(searched.status).toBe(200)
    expect(searched.body.counts.households).toBeLessThanOrEqual(1)
  })

  it('answers 422 for a dues or health value it does not know, 404 for an unknown unit, 401 and 403 as the roster does', async () => {
    for (const query of ['?dues=paid', '?dues=UNPAID', '?health=ok', '?health=', `?q=${'x'.repeat(101)}`]) {
      const res = await get(query)
      expect(res.status, query).toBe(422)
      expect(typeof res.body.detail).toBe('string')
    }
    expect((await get('?unit=crew&dues=unpaid')).status).toBe(404)
    expect((await r.req('GET', '/api/admin/roster?dues=unpaid')).status).toBe(401)
    expect((await get('?dues=unpaid', { cookie: (await r.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await get('?dues=unpaid', { token: ADMIN_TOKEN })).status).toBe(403)
  })

  it('exports CSV that starts with a UTF-8 byte-order mark, keeps accented names, and takes the same filters', async () => {
    const res = await fetch(`${r.url}/api/admin/roster/export`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
    expect(text.startsWith('\uFEFFfirst_name,')).toBe(true)
    expect(text).toContain('"Renée Côté"')
    expect(text).toContain('"Chloé","Côté"')
    const unpaid = await r.req('GET', '/api/admin/roster/export?dues=unpaid', { cookie })
    expect(unpaid.text.trim().split('\r\n').length - 1).toBe(seeded.counts.dues_unpaid)
    expect((await r.req('GET', '/api/admin/roster/export?health=soon', { cookie })).status).toBe(422)
  })

  // Last in this block: it adds households.
  it('answers each household of a page as the whole roster does: the same scouts kept by the filters, checks and invites', async () => {
    for (const filters of ['', '?unit=pack&dues=unpaid', '?health=missing', '?unit=troop']) {
      const whole = (await get(filters)).body.households
      const paged = await walkPages(
        (path) => r.req('GET', path, { cookie }),
        `/api/admin/roster${filters}`,
        8,
        (body) => body.households,
      )
      expect(paged, filters).toEqual(whole)
    }
  })

  it('pages with limit and cursor in the same order, counts staying totals, each household once while households are added', async () => {
    const walk = async (filters: string, limit: number, between?: () => Promise<unknown>) => {
      const whole = await get(filters)
      const rows = (body: any) => {
        if (!between) expect(body.counts).toEqual(whole.body.counts)
        return body.households.map((h: any) => h.id)
      }
      const walked = await walkPages((path) => r.req('GET', path, { cookie }), `/api/admin/roster${filters}`, limit, rows, between)
      return { walked, whole: whole.body.households.map((h: any) => h.id) }
    }
    for (const [filters, limit] of [
      ['', 7],
      ['', 60],
      ['?unit=pack&dues=unpaid', 3],
      ['?health=missing', 4],
      ['?q=a', 5],
    ] as const) {
      const { walked, whole } = await walk(filters, limit)
      expect(walked, filters).toEqual(whole)
    }
    expect((await get('?limit=1')).body.households).toHaveLength(1)
    // Households that sort before and after the walk's place arrive between pages: none repeats, none is lost, and
    // those after the place are met in their turn.
    let added = 0
    const add = async () => {
      for (const name of [`Aaron Aab-${++added}`, `Zed Zzyzx-${added}`, `Mia Mmm-${added}`])
        expect((await r.req('POST', '/api/admin/roster/households', { cookie, json: { parent_name: name } })).status).toBe(201)
    }
    const before = (await get()).body.households.map((h: any) => h.id)
    const { walked } = await walk('', 9, add)
    const after = (await get()).body.households.map((h: any) => h.id)
    expect(new Set(walked).size).toBe(walked.length)
    expect(walked).toEqual(expect.arrayContaining(before))
    expect(walked).toEqual(after.filter((id: number) => walked.includes(id))) // in the roster's order
    expect(walked.length).toBeGreaterThan(before.length) // some added ones sorted after the place and were met
  })

  it('refuses a roster cursor used with other filters (cursor_mismatch) or not one it gave (cursor_invalid)', async () => {
    const cursor = encodeURIComponent((await get('?unit=pack&limit=2')).body.next_cursor)
    expect((await get(`?unit=pack&limit=3&cursor=${cursor}`)).status).toBe(200)
    const other = await get(`?unit=troop&cursor=${cursor}`)
    expectDetail(other, 422)
    expect(other.body.code).toBe('cursor_mismatch')
    for (const bad of ['garbage', encodeCursor('roster', {}, [999_999]), encodeCursor('roster', {}, ['Abbott'])]) {
      const res = await get(`?cursor=${bad}`)
      expectDetail(res, 422)
      expect(res.body.code, bad).toBe('cursor_invalid')
    }
  })
})

describe('importing a lead with its scout', () => {
  const lead = async (fields: { scout_name?: string | null; scout_grade?: string | null; unit: 'pack' | 'troop' | 'unsure' }) =>
    (
      await s.db
        .insertInto('leads')
        .values({
          created_at: new Date().toISOString(),
          parent_name: 'Lee Parent',
          email: uniqueEmail('lead'),
          phone: null,
          scout_name: null,
          scout_grade: null,
          message: null,
          claimed_by: null,
          claimed_at: null,
          ...fields,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id

  it("copies the lead's scout and grade into a first scout in the lead's unit", async () => {
    const id = await lead({ scout_name: 'Jamie Lee', scout_grade: '3', unit: 'pack' })
    const res = await household({ lead_id: id })
    expect(res.status).toBe(201)
    expect(res.body.scouts).toHaveLength(1)
    expect(res.body.scouts[0]).toMatchObject({ first_name: 'Jamie', last_name: 'Lee', unit_slug: 'pack', den: 'grade 3' })
    expect((await s.lastLog('roster.scout_create')).summary).toBe("Jamie, in Lee Parent's household, from their join form")
    const noScout = await household({ lead_id: await lead({ unit: 'troop' }) })
    expect(noScout.status).toBe(201)
    expect(noScout.body.scouts).toEqual([])
  })

  it('asks which unit when the family was not sure (422), and keeps to the units the leader leads (403)', async () => {
    const id = await lead({ scout_name: 'Kit', scout_grade: 'Grade 7', unit: 'unsure' })
    const unsure = await household({ lead_id: id })
    expect(unsure.status).toBe(422)
    expect(unsure.body.detail).toContain('unit')
    expect((await household({ lead_id: id, unit: 'troop' })).status).toBe(403)
    expect((await household({ lead_id: id, unit: 'crew' })).status).toBe(422)
    expect(await s.db.selectFrom('households').select('id').where('lead_id', '=', id).executeTakeFirst()).toBeUndefined()
    const troopLeader = await s.as(ROLES.troopLeader)
    const res = await household({ lead_id: id, unit: 'troop' }, troopLeader.cookie)
    expect(res.status).toBe(201)
    expect(res.body.scouts[0]).toMatchObject({ first_name: 'Kit', last_name: null, unit_slug: 'troop', den: 'Grade 7' })
    expect((await household({ parent_name: 'No Lead', unit: 'pack' })).status).toBe(422)
  })
})

describe('GET /api/admin/roster/households/:id', () => {
  it('answers a household in the shape its creation, its change and its linked accounts answer', async () => {
    const made = await household({ parent_name: 'Same Shape', email: 'same.shape@example.org' })
    const path = `/api/admin/roster/households/${made.body.id}`
    const one = async () => (await s.req('GET', path, { cookie: leader.cookie })).body
    expect(await one()).toEqual(made.body)
    const changed = await s.req('PATCH', path, { cookie: leader.cookie, json: { notes: 'Prefers texts' } })
    expect(await one()).toEqual(changed.body)
    const parent = await s.as(ROLES.member)
    const linked = await s.req('PUT', `${path}/people`, { cookie: leader.cookie, json: { person_ids: [parent.id] } })
    expect(await one()).toEqual(linked.body)
  })

  it('carries the open invites of the household, as the roster list shows them', async () => {
    const made = await household({ parent_name: 'Invited Home' })
    const path = `/api/admin/roster/households/${made.body.id}`
    expect(made.body.invites).toEqual([])
    const invited = await s.req('POST', '/api/admin/people/invite', {
      cookie: leader.cookie,
      json: { email: 'invited.home@example.org', units: [{ unit_id: pack, role: 'member' }], household_id: made.body.id },
    })
    expect(invited.status).toBe(201)
    const alone = (await s.req('GET', path, { cookie: leader.cookie })).body
    expect(alone.invites).toEqual([expect.objectContaining({ id: invited.body.id, email: 'invited.home@example.org' })])
    const listed = (await s.req('GET', '/api/admin/roster?q=Invited%20Home', { cookie: leader.cookie })).body.households
    expect(listed).toEqual([alone])
  })
})

describe('GET /api/admin/roster/scouts/:id', () => {
  it('answers one scout as its household shows it, the same shape its creation and its change answer', async () => {
    const home = await household({ parent_name: 'Alone Reader' })
    const made = await scout(home.body.id, { first_name: 'Sol', unit_id: pack, den: 'Wolf' })
    const one = () => s.req('GET', `/api/admin/roster/scouts/${made.body.id}`, { cookie: leader.cookie })
    const res = await one()
    expect(res.status).toBe(200)
    expect(res.body).toEqual(made.body)
    expect(res.body).toMatchObject({ first_name: 'Sol', unit_slug: 'pack', checks: { dues: { done: false } } })
    const edited = await s.req('PATCH', `/api/admin/roster/scouts/${made.body.id}`, { cookie: leader.cookie, json: { den: 'Bear' } })
    expect((await one()).body).toEqual(edited.body)
    await s.req('PUT', `/api/admin/roster/scouts/${made.body.id}/checks/dues`, { cookie: leader.cookie, json: { done: true } })
    const ticked = (await one()).body
    expect(ticked.checks.dues.done).toBe(true)
    const inHousehold = (await s.req('GET', `/api/admin/roster/households/${home.body.id}`, { cookie: leader.cookie })).body.scouts
    expect(inHousehold).toEqual([ticked])
  })

  it('answers 404 for an unknown scout, 403 to a member and to a family account, 401 anonymous', async () => {
    const home = await household({ parent_name: 'Kept Private' })
    const made = await scout(home.body.id, { first_name: 'Ari', unit_id: pack })
    const path = `/api/admin/roster/scouts/${made.body.id}`
    expect((await s.req('GET', '/api/admin/roster/scouts/999999', { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('GET', path, { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    const parent = await s.as(ROLES.member)
    const linked = await s.req('PUT', `/api/admin/roster/households/${home.body.id}/people`, {
      cookie: leader.cookie,
      json: { person_ids: [parent.id] },
    })
    expect(linked.status).toBe(200)
    expect((await s.req('GET', '/api/admin/family', { cookie: parent.cookie })).body.households[0].scouts[0].first_name).toBe('Ari')
    expect((await s.req('GET', path, { cookie: parent.cookie })).status).toBe(403)
    expect((await s.req('GET', path)).status).toBe(401)
  })
})
