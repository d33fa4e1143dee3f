// Roster import: a CSV file previewed (nothing written), then applied in one transaction with one log entry; the
// BSA Member Roster export and a leader's own spreadsheet, header synonyms, households by email or name and phone,
// bad rows by line, scope, expiry, and the roster's own CSV export read back into an empty installation.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import { pruneExpired } from '../../server/ops/retention.ts'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

const FIXTURES = path.join(import.meta.dir, '..', 'fixtures', 'roster')
const bsaCsv = await Bun.file(path.join(FIXTURES, 'bsa-member-roster.csv')).text()
const genericCsv = await Bun.file(path.join(FIXTURES, 'generic-roster.csv')).text()

const servers: TestServer[] = []
afterAll(() => Promise.all(servers.map((s) => s.stop())))
async function fresh() {
  const s = await startServer()
  servers.push(s)
  const admin = await s.as(ROLES.admin)
  return { s, admin }
}
const preview = (s: TestServer, cookie: string, json: Record<string, unknown>) =>
  s.req('POST', '/api/admin/roster/imports', { cookie, json })
const apply = (s: TestServer, cookie: string, id: string) => s.req('POST', `/api/admin/roster/imports/${id}/apply`, { cookie })
const count = async (s: TestServer, table: 'households' | 'scouts') =>
  Number(
    (
      await s.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
const logCount = async (s: TestServer, kind: string) =>
  Number(
    (
      await s.db
        .selectFrom('action_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
    ).n,
  )
/** The roster as sets of facts: each scout with its unit, den, member id and parents, and which scouts share a household. */
async function rosterFacts(s: TestServer) {
  const rows = await s.db
    .selectFrom('scouts')
    .innerJoin('households', 'households.id', 'scouts.household_id')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select(['scouts.first_name', 'scouts.last_name', 'units.slug', 'scouts.den', 'scouts.org_member_id', 'households.id as hid'])
    .select(['households.parent_name', 'households.email', 'households.phone', 'households.second_parent', 'households.second_email'])
    .execute()
  const scouts = rows.map(({ hid, ...r }) => JSON.stringify(r)).sort()
  const groups = new Map<number, string[]>()
  for (const r of rows) groups.set(r.hid, [...(groups.get(r.hid) ?? []), `${r.first_name} ${r.last_name}`].sort())
  return { scouts, households: [...groups.values()].map((g) => g.join(', ')).sort() }
}

describe('a leader’s own spreadsheet (generic fixture, 60 households)', () => {
  let s: TestServer
  let admin: { cookie: string }
  beforeAll(async () => ({ s, admin } = await fresh()))

  it('previews 201 with households, scouts and warnings, writing nothing; apply 200 writes all with one log entry', async () => {
    const res = await preview(s, admin.cookie, { csv: genericCsv })
    expect(res.status).toBe(201)
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(res.body.households).toHaveLength(60)
    expect(res.body.scouts).toHaveLength(75)
    expect(res.body.bad_rows).toEqual([])
    expect(res.body.households.every((h: { action: string }) => h.action === 'create')).toBe(true)
    const warnings = res.body.warnings.map((w: { message: string }) => w.message).join('\n')
    expect(warnings).toContain('Allergies')
    expect(warnings).toContain('Scout Email')
    expect(res.body.scouts[0]).toMatchObject({
      first_name: 'Avery',
      last_name: 'Abbott',
      unit: 'pack',
      den: 'Lion',
      org_member_id: '130000000',
    })
    expect(res.body.households[0]).toMatchObject({
      parent_name: 'Alex Abbott',
      email: 'alex.abbott@example.org',
      phone: '555-0100-1000',
      second_parent: 'Taylor Abbott',
      second_email: 'second.alex.abbott@example.org',
      lines: [2, 3],
    })
    expect(await count(s, 'households')).toBe(0)
    expect(await count(s, 'scouts')).toBe(0)

    const done = await apply(s, admin.cookie, res.body.id)
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ created: { households: 60, scouts: 75 }, updated: { households: 0, scouts: 0 }, skipped: 0 })
    expect(await count(s, 'households')).toBe(60)
    expect(await count(s, 'scouts')).toBe(75)
    expect(await logCount(s, 'roster.import')).toBe(1)
    expect(await logCount(s, 'roster.household_create')).toBe(0)
    expect((await s.lastLog('roster.import')).summary).toContain('60 households and 75 scouts added')
    const troop = await s.db
      .selectFrom('scouts')
      .innerJoin('units', 'units.id', 'scouts.unit_id')
      .select('den')
      .where('slug', '=', 'troop')
      .execute()
    expect(new Set(troop.map((t) => t.den))).toEqual(new Set(['Eagle Patrol', 'Fox Patrol', 'Hawk Patrol']))
  })

  it('the same preview again is 409 import_applied; the same file again creates and updates nothing', async () => {
    const first = await preview(s, admin.cookie, { csv: genericCsv })
    expect(first.body.scouts.every((sc: { action: string }) => sc.action === 'unchanged')).toBe(true)
    expect(first.body.new_dens).toEqual([])
    expect((await apply(s, admin.cookie, first.body.id)).body).toEqual({
      created: { households: 0, scouts: 0 },
      updated: { households: 0, scouts: 0 },
      skipped: 0,
    })
    const again = await apply(s, admin.cookie, first.body.id)
    expectDetail(again, 409)
    expect(again.body.code).toBe('import_applied')
    expect(await count(s, 'households')).toBe(60)
    expect(await count(s, 'scouts')).toBe(75)
  })

  it('matches an existing scout by member id, then by name in the unit, and updates it rather than adding one', async () => {
    const csv = [
      'first name,last name,unit,den,member id,parent name,parent email',
      'Avery,Abbott,pack,Webelos,130000000,Alex Abbott,alex.abbott@example.org',
      'Harper,Abbott,pack,Bear,,Alex Abbott,alex.abbott@example.org',
      'Nia,Abbott,pack,Lion,,Alex Abbott,alex.abbott@example.org',
      'Zed,Abbott,pack,Lion,130000000,Alex Abbott,alex.abbott@example.org',
    ].join('\n')
    const res = await preview(s, admin.cookie, { csv })
    expect(res.status).toBe(201)
    expect(res.body.scouts.map((sc: { action: string; changes: string[] }) => [sc.action, sc.changes])).toEqual([
      ['update', ['den']],
      ['update', ['den']],
      ['create', []],
    ])
    expect(res.body.households).toMatchObject([{ action: 'unchanged', lines: [2, 3, 4] }])
    expect(res.body.bad_rows).toEqual([{ line: 5, reason: 'the same scout as line 2' }])
    const done = await apply(s, admin.cookie, res.body.id)
    expect(done.body).toEqual({ created: { households: 0, scouts: 1 }, updated: { households: 0, scouts: 2 }, skipped: 1 })
    const abbotts = await s.db
      .selectFrom('scouts')
      .select(['first_name', 'den', 'household_id'])
      .where('last_name', '=', 'Abbott')
      .execute()
    expect(abbotts).toHaveLength(3)
    expect(new Set(abbotts.map((a) => a.household_id)).size).toBe(1)
  })
})

describe('the BSA Member Roster export, as it comes', () => {
  it('reads the youth section, the unit from its title, two parents from two lines; drops medical and youth contact', async () => {
    const { s } = await fresh()
    const leader = await s.as(ROLES.packLeader)
    const res = await preview(s, leader.cookie, { csv: bsaCsv })
    expect(res.status).toBe(201)
    expect(res.body.households).toHaveLength(60)
    expect(res.body.scouts).toHaveLength(75)
    expect(res.body.bad_rows).toEqual([])
    expect(res.body.scouts.every((sc: { unit: string }) => sc.unit === 'pack')).toBe(true)
    expect(res.body.scouts[0]).toMatchObject({ first_name: 'Avery', last_name: 'Abbott', den: 'Lion', org_member_id: '130000000', line: 8 })
    expect(res.body.households[0]).toMatchObject({
      parent_name: 'Alex Abbott',
      email: 'alex.abbott@example.org',
      phone: '555-0100-1000',
      second_parent: 'Taylor Abbott',
      second_email: 'second.alex.abbott@example.org',
    })
    const warnings = res.body.warnings.map((w: { message: string }) => w.message).join('\n')
    expect(warnings).toContain('Health Form A/B Status')
    expect(warnings).toContain('Date of Birth')
    expect(warnings).toMatch(/scout's own email and phone are not imported: Home Phone/)
    expect(res.body.new_dens.map((d: { den: string }) => d.den).sort()).toEqual([
      'Arrow of Light',
      'Bear',
      'Lion',
      'Tiger',
      'Webelos',
      'Wolf',
    ])
    expect(JSON.stringify(res.body)).not.toContain('Cubmaster')

    const done = await apply(s, leader.cookie, res.body.id)
    expect(done.body).toEqual({ created: { households: 60, scouts: 75 }, updated: { households: 0, scouts: 0 }, skipped: 0 })
    const again = await preview(s, leader.cookie, { csv: bsaCsv })
    expect((await apply(s, leader.cookie, again.body.id)).body).toMatchObject({
      created: { households: 0, scouts: 0 },
      updated: { households: 0, scouts: 0 },
    })
  })

  it('403 unit_out_of_scope for a unit the leader does not lead (the title’s or `unit`); rows of another unit are bad rows', async () => {
    const { s } = await fresh()
    const troopLeader = await s.as(ROLES.troopLeader)
    const byTitle = await preview(s, troopLeader.cookie, { csv: bsaCsv })
    expectDetail(byTitle, 403)
    expect(byTitle.body.code).toBe('unit_out_of_scope')
    const packLeader = await s.as(ROLES.packLeader)
    const byUnit = await preview(s, packLeader.cookie, { csv: genericCsv, unit: 'troop' })
    expect(byUnit.status).toBe(403)
    expect(byUnit.body.code).toBe('unit_out_of_scope')
    const mixed = await preview(s, packLeader.cookie, { csv: genericCsv })
    expect(mixed.status).toBe(201)
    expect(mixed.body.bad_rows).toHaveLength(30)
    expect(mixed.body.scouts).toHaveLength(45)
    expect(mixed.body.bad_rows[0]).toMatchObject({ line: 4, reason: expect.stringMatching(/is a unit you do not lead$/) })
    const member = await s.as(ROLES.member)
    expect((await preview(s, member.cookie, { csv: genericCsv })).status).toBe(403)
    expect((await s.req('POST', '/api/admin/roster/imports', { json: { csv: genericCsv } })).status).toBe(401)
    expect((await s.req('POST', '/api/admin/roster/imports', { token: ADMIN_TOKEN, json: { csv: genericCsv } })).status).toBe(403)
  })
})

describe('synonyms, grouping and bad rows', () => {
  const csv = [
    ' FIRST  NAME ,Last_Name,Den or Patrol,Parent/Guardian,Parent Email,Phone',
    'Ana,Lopez,Wolf,Maria Lopez,maria@example.org,555-111-2222',
    'Ben,Lopez,Bear,Maria Lopez,MARIA@example.org,',
    'Cy,Nash,Wolf,Pat Nash,,555-333-4444',
    'Di,Nash,Tiger,Pat Nash,,(555) 333-4444',
    ',Nobody,Wolf,X Y,x@example.org,',
    'Ed,Bad,Wolf,Ed Parent,not-an-email,',
    'Fay,Noparent,Wolf,,,',
    'Cy,Nash,Wolf,Pat Nash,,555-333-4444',
    'Gus,Oak,Wolf,Pat Nash,,555-999-0000',
  ].join('\r\n')

  it('groups by parent email (any case), else parent name and phone digits; lists bad rows by line; applies the rest whole', async () => {
    const { s, admin } = await fresh()
    const res = await preview(s, admin.cookie, { csv, unit: 'pack' })
    expect(res.status).toBe(201)
    expect(res.body.households.map((h: { parent_name: string; lines: number[] }) => [h.parent_name, h.lines])).toEqual([
      ['Maria Lopez', [2, 3]],
      ['Pat Nash', [4, 5]],
      ['Pat Nash', [10]],
    ])
    expect(res.body.bad_rows).toEqual([
      { line: 6, reason: 'no scout first name' },
      { line: 7, reason: 'parent email “not-an-email” is not an email address' },
      { line: 8, reason: 'no parent name' },
    ])
    const done = await apply(s, admin.cookie, res.body.id)
    expect(done.body).toEqual({ created: { households: 3, scouts: 5 }, updated: { households: 0, scouts: 0 }, skipped: 3 })
    expect(await s.db.selectFrom('scouts').select('first_name').where('first_name', 'in', ['Ed', 'Fay']).execute()).toEqual([])
    expect(
      (await s.db.selectFrom('households').select('email').where('parent_name', '=', 'Maria Lopez').execute()).map((h) => h.email),
    ).toEqual(['maria@example.org'])
  })

  it('422 for a missing unit, an unknown unit or field, text that is not CSV or has no header; 413 for a huge body', async () => {
    const { s, admin } = await fresh()
    const noUnit = await preview(s, admin.cookie, { csv })
    expect(noUnit.status).toBe(201)
    expect(noUnit.body.bad_rows[0]).toEqual({ line: 2, reason: 'no unit: add a Unit column or choose the unit to import into' })
    expect((await preview(s, admin.cookie, { csv: 'first name,unit,parent\nAl,cave,Bo\n', unit: 'pack' })).body.bad_rows).toEqual([
      { line: 2, reason: 'no unit “cave” (say pack or troop)' },
    ])
    expectDetail(await preview(s, admin.cookie, { csv, unit: 'cave' }), 422)
    expectDetail(await preview(s, admin.cookie, { csv, colour: 'red' }), 422)
    expectDetail(await preview(s, admin.cookie, { csv: '' }), 422)
    const unclosed = await preview(s, admin.cookie, { csv: 'first name,parent\n"Al,Bo\n' })
    expectDetail(unclosed, 422)
    expect(unclosed.body.code).toBe('not_csv')
    expectDetail(await preview(s, admin.cookie, { csv: 'PK\u0003\u0004\u0000\u0000' }), 422)
    const headless = await preview(s, admin.cookie, { csv: 'hello world\njust words\n' })
    expectDetail(headless, 422)
    expect(headless.body.code).toBe('no_header')
    const huge = await s.req('POST', '/api/admin/roster/imports', { cookie: admin.cookie, json: { csv: 'x'.repeat(5 * 1024 * 1024) } })
    expect(huge.status).toBe(413)
    expect(await count(s, 'households')).toBe(0)
  })
})

describe('a preview’s life', () => {
  it('404 for an unknown id or another person’s; 410 import_expired after an hour; retention removes it a day later', async () => {
    const { s, admin } = await fresh()
    const res = await preview(s, admin.cookie, { csv: genericCsv })
    const other = await s.as(ROLES.admin)
    expectDetail(await apply(s, other.cookie, res.body.id), 404)
    expectDetail(await apply(s, admin.cookie, 'nosuchpreview0000000'), 404)
    expectDetail(await apply(s, admin.cookie, 'bad id!'), 422)
    const hourAgo = new Date(Date.now() - 1000).toISOString()
    await s.db.updateTable('roster_imports').set({ expires_at: hourAgo }).where('id', '=', res.body.id).execute()
    const late = await apply(s, admin.cookie, res.body.id)
    expectDetail(late, 410)
    expect(late.body.code).toBe('import_expired')
    expect(await count(s, 'households')).toBe(0)
    expect((await pruneExpired(s.db, Date.now())).roster_imports).toBe(0)
    expect((await pruneExpired(s.db, Date.now() + 25 * 3600_000)).roster_imports).toBe(1)
    expectDetail(await apply(s, admin.cookie, res.body.id), 404)
  })
})

describe('export stays the mirror of import', () => {
  it('the roster CSV the service writes, imported into an empty installation, gives the same households and scouts', async () => {
    const { s, admin } = await fresh()
    await apply(s, admin.cookie, (await preview(s, admin.cookie, { csv: genericCsv })).body.id)
    const exported = await s.req('GET', '/api/admin/roster/export', { cookie: admin.cookie })
    expect(exported.status).toBe(200)
    const { s: empty, admin: admin2 } = await fresh()
    const res = await preview(empty, admin2.cookie, { csv: exported.text })
    expect(res.status).toBe(201)
    expect(res.body.bad_rows).toEqual([])
    expect(res.body.warnings.map((w: { message: string }) => w.message).join()).toMatch(/dues_\d{4}, health_form_\d{4}, health_form_until/)
    expect((await apply(empty, admin2.cookie, res.body.id)).body.created).toEqual({ households: 60, scouts: 75 })
    expect(await rosterFacts(empty)).toEqual(await rosterFacts(s))
  })
})
