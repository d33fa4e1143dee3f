// Fundraiser credits from a file: a preview naming the scout each line credits and the lines that cannot be, then an
// apply that writes the credits in one transaction; once per preview, and never the same credit twice.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'

let s: TestServer
let leader: { cookie: string }
let scouts: { id: number; household_id: number }[]
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.troopLeader)
  await addHousehold(s.db, {
    unit: 'troop',
    email: null,
    scouts: [
      { first_name: 'José', last_name: 'Álvarez' },
      { first_name: 'Ana', last_name: 'Lee' },
    ],
  })
  await addHousehold(s.db, { unit: 'troop', email: null, scouts: [{ first_name: 'Ana', last_name: 'Lee' }] })
  await addHousehold(s.db, { unit: 'pack', email: null, scouts: [{ first_name: 'Pat', last_name: 'Cub' }] })
  scouts = await s.db.selectFrom('scouts').select(['id', 'household_id']).orderBy('id').execute()
  await s.db.updateTable('scouts').set({ org_member_id: '135792468' }).where('id', '=', scouts[2].id).execute()
})
afterAll(() => s.stop())

const preview = (csv: string, extra: Record<string, unknown> = {}) =>
  s.req('POST', '/api/admin/money/credits/imports', { cookie: leader.cookie, json: { csv, ...extra } })
const apply = (id: string) => s.req('POST', `/api/admin/money/credits/imports/${id}/apply`, { cookie: leader.cookie, json: {} })
const credits = () => s.db.selectFrom('money_entries').selectAll().where('kind', '=', 'credit').orderBy('id').execute()

const SHEET = [
  'Scout Name,Member ID,Sales,Memo',
  'jose alvarez,,"$1,042.50",Popcorn 2026', // accents and case ignored, thousands and a dollar sign read
  ',135792468,20,Popcorn 2026', // the second Ana Lee, by member id
  'Ana Lee,,15,Popcorn 2026', // two scouts have this name
  'Pat Cub,,10,Popcorn 2026', // a pack scout: not in the troop leader's units
  'Nobody Here,,5,Popcorn 2026',
  'José Álvarez,,-3,Popcorn 2026',
  'José Álvarez,,12,', // the memo left out
].join('\r\n')

describe('fundraiser credits from a file', () => {
  it('previews (201) which scout each line credits and why the others are not, writing nothing; applies once (200, then 409)', async () => {
    const res = await preview(SHEET)
    expect(res.status).toBe(201)
    expect(res.body.credits).toEqual([
      { line: 2, scout_id: scouts[0].id, name: 'José Álvarez', amount_cents: 104250, memo: 'Popcorn 2026' },
      { line: 3, scout_id: scouts[2].id, name: 'Ana Lee', amount_cents: 2000, memo: 'Popcorn 2026' },
      { line: 8, scout_id: scouts[0].id, name: 'José Álvarez', amount_cents: 1200, memo: 'Fundraiser credit' },
    ])
    expect(res.body.bad_rows.map((b: any) => b.line)).toEqual([4, 5, 6, 7])
    expect(res.body.bad_rows[0].reason).toContain('give the member id')
    expect(res.body.total_cents).toBe(107450)
    expect(await credits()).toEqual([])
    const done = await apply(res.body.id)
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ created: 3, skipped: 4, total_cents: 107450 })
    expect((await credits()).map((c) => [c.scout_id, c.amount_cents])).toEqual([
      [scouts[0].id, 104250],
      [scouts[2].id, 2000],
      [scouts[0].id, 1200],
    ])
    expect((await s.lastLog('money.credits_import')).summary).toContain('$1,074.50 to 3 scouts')
    expect([(await apply(res.body.id)).status, (await apply(res.body.id)).body.code]).toEqual([409, 'import_applied'])
  })

  it('credits nobody twice when the same file is previewed and applied again', async () => {
    const again = await preview(SHEET)
    expect(again.body.credits).toEqual([])
    expect(again.body.bad_rows.filter((b: any) => b.reason.includes('already has this credit')).length).toBe(3)
    expect((await apply(again.body.id)).body.created).toBe(0)
    expect((await credits()).length).toBe(3)
  })

  it('refuses what is not a credits file (422), another unit (403), an unknown or expired preview (404, 410)', async () => {
    for (const [csv, code] of [
      ['Name,Colour\r\nA,red', 'no_header'],
      ['Scout,Amount\r\n"unclosed,5', 'not_csv'],
    ]) {
      const res = await preview(csv)
      expectDetail(res, 422)
      expect(res.body.code).toBe(code)
    }
    expect((await preview(SHEET, { unit: 'pack' })).body.code).toBe('unit_out_of_scope')
    expectDetail(await apply('NoSuchPreview0000'), 404)
    const old = await preview('Scout,Amount\r\nAna Lee,1')
    await s.db.updateTable('money_imports').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', old.body.id).execute()
    const expired = await apply(old.body.id)
    expect([expired.status, expired.body.code]).toEqual([410, 'import_expired'])
    const other = await s.as(ROLES.admin)
    const mine = await preview('Scout,Amount\r\nAna Lee,1')
    expectDetail(await s.req('POST', `/api/admin/money/credits/imports/${mine.body.id}/apply`, { cookie: other.cookie, json: {} }), 404)
  })
})
