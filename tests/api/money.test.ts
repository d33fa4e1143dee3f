// The money ledger: entries for a scout or a household, reversals, the entries' pages, accounts and their balances,
// dues charged once per program year, and the roster's dues check following the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { addDays, today } from '../dates.ts'
import { addHousehold } from '../households.ts'
import { walkPages } from '../paging.ts'

let s: TestServer
let packLeader: { cookie: string }
let troopLeader: { cookie: string }
let admin: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  packLeader = await s.as(ROLES.packLeader)
  troopLeader = await s.as(ROLES.troopLeader)
  admin = await s.as(ROLES.admin)
})
afterAll(() => s.stop())

const scoutsOf = (householdId: number) =>
  s.db.selectFrom('scouts').select(['id', 'first_name']).where('household_id', '=', householdId).orderBy('id').execute()
const entry = (json: Record<string, unknown>, cookie = packLeader.cookie) => s.req('POST', '/api/admin/money/entries', { cookie, json })
const accounts = async (query = '', cookie = packLeader.cookie) => {
  const res = await s.req('GET', `/api/admin/money/accounts${query}`, { cookie })
  expect(res.status).toBe(200)
  return res.body as { accounts: any[]; totals: { owed_cents: number; credit_cents: number } }
}
const balanceOf = async (key: { household_id?: number; scout_id?: number }) => {
  const all = await accounts('', admin.cookie)
  return all.accounts.find((a) => (key.scout_id ? a.scout_id === key.scout_id : a.household_id === key.household_id && !('scout_id' in a)))
    ?.balance_cents
}
const DAY = '2026-11-20'
/** The refusal's code, after checking its status and that it says why. */
const codeOf = (res: Awaited<ReturnType<TestServer['req']>>, status: number) => {
  expectDetail(res, status)
  return res.body.code
}

describe('POST /api/admin/money/entries', () => {
  it('writes a scout’s entry and a household’s (201) with its action-log entry; the balance follows the kind', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: 'ledger@example.org', scouts: 2 })
    const [sam, kid] = await scoutsOf(h)
    const charge = await entry({ scout_id: sam.id, kind: 'charge', amount_cents: 4500, date: DAY, memo: 'Campout' })
    expect(charge.status).toBe(201)
    expect(charge.body.entry).toMatchObject({
      household_id: h,
      scout_id: sam.id,
      kind: 'charge',
      amount_cents: 4500,
      method: null,
      reverses_id: null,
      reversed_by_id: null,
    })
    expect((await s.lastLog('money.entry')).summary).toContain('Charge of $45.00')
    expect((await entry({ household_id: h, kind: 'payment', amount_cents: 2000, date: DAY, memo: 'Cash', method: 'cash' })).status).toBe(
      201,
    )
    expect(
      (await entry({ scout_id: kid.id, kind: 'refund', amount_cents: 300, date: DAY, memo: 'Back', method: 'check', reference: '101' }))
        .status,
    ).toBe(201)
    expect((await entry({ scout_id: kid.id, kind: 'credit', amount_cents: 1000, date: DAY, memo: 'Popcorn' })).status).toBe(201)
    expect(await balanceOf({ household_id: h })).toBe(4500 - 2000 + 300 - 1000)
    expect(await balanceOf({ scout_id: sam.id })).toBe(4500)
    expect(await balanceOf({ scout_id: kid.id })).toBe(300 - 1000)
  })

  it('refuses bad bodies (422) and writes nothing', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [sam] = await scoutsOf(h)
    const before = await s.db
      .selectFrom('money_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const base = { kind: 'charge', amount_cents: 100, date: DAY, memo: 'X' }
    for (const bad of [
      { ...base, scout_id: sam.id, household_id: h },
      base,
      { ...base, scout_id: sam.id, amount_cents: 0 },
      { ...base, scout_id: sam.id, amount_cents: -5 },
      { ...base, scout_id: sam.id, amount_cents: 1.5 },
      { ...base, scout_id: sam.id, kind: 'gift' },
      { ...base, scout_id: sam.id, date: '2026-02-30' },
      { ...base, scout_id: sam.id, memo: '' },
      { ...base, scout_id: sam.id, method: 'cash' },
      { ...base, scout_id: 999999 },
      { ...base, household_id: 999999 },
      { ...base, scout_id: sam.id, event_uid: 'no-such-event' },
    ])
      expectDetail(await entry(bad), 422)
    const after = await s.db
      .selectFrom('money_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(after.n).toBe(before.n)
  })

  it('keeps a leader to the units they lead (403 unit_out_of_scope); members and the break-glass token are refused', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [sam] = await scoutsOf(h)
    const body = { kind: 'charge', amount_cents: 100, date: DAY, memo: 'X' }
    expect(codeOf(await entry({ ...body, scout_id: sam.id }, troopLeader.cookie), 403)).toBe('unit_out_of_scope')
    expect(codeOf(await entry({ ...body, household_id: h }, troopLeader.cookie), 403)).toBe('unit_out_of_scope')
    const member = await s.as(ROLES.member)
    expect((await entry({ ...body, scout_id: sam.id }, member.cookie)).status).toBe(403)
    const glass = await s.req('POST', '/api/admin/money/entries', {
      headers: { 'x-admin-token': ADMIN_TOKEN },
      json: { ...body, scout_id: sam.id },
    })
    expect(glass.status).toBe(403)
  })

  it('takes a key holding money:write, and refuses one without it', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [sam] = await scoutsOf(h)
    const body = { scout_id: sam.id, kind: 'payment', amount_cents: 100, date: DAY, memo: 'Online', method: 'online' }
    const withScope = await s.mintKey(packLeader.cookie, ['money:write'])
    const without = await s.mintKey(packLeader.cookie, ['roster:write'])
    const ok = await s.req('POST', '/api/admin/money/entries', { headers: { authorization: `Bearer ${withScope.key}` }, json: body })
    expect(ok.status).toBe(201)
    expect(
      (await s.req('POST', '/api/admin/money/entries', { headers: { authorization: `Bearer ${without.key}` }, json: body })).status,
    ).toBe(403)
  })

  it('keeps every one of 20 concurrent entries on one account: the balance is their exact sum', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [sam] = await scoutsOf(h)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        entry({ scout_id: sam.id, kind: i % 2 ? 'payment' : 'charge', amount_cents: 100 + i, date: DAY, memo: `Entry ${i}` }),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201))
    const expected = Array.from({ length: 20 }, (_, i) => (i % 2 ? -1 : 1) * (100 + i)).reduce((a, b) => a + b, 0)
    expect(await balanceOf({ scout_id: sam.id })).toBe(expected)
    const logged = await s.db
      .selectFrom('action_log')
      .select('summary')
      .where('kind', '=', 'money.entry')
      .where('summary', 'like', '%: Entry %')
      .execute()
    expect(logged.length).toBe(20)
  })
})

describe('POST /api/admin/money/entries/{id}/reverse', () => {
  it('undoes an entry with a new one counting the other way (201); once only (409); a reversal is not reversed (409)', async () => {
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [sam] = await scoutsOf(h)
    const charge = (await entry({ scout_id: sam.id, kind: 'charge', amount_cents: 2500, date: DAY, memo: 'Entered twice' })).body.entry
    expect(await balanceOf({ scout_id: sam.id })).toBe(2500)
    const undo = await s.req('POST', `/api/admin/money/entries/${charge.id}/reverse`, { cookie: packLeader.cookie, json: {} })
    expect(undo.status).toBe(201)
    expect(undo.body.entry).toMatchObject({
      kind: 'charge',
      amount_cents: 2500,
      reverses_id: charge.id,
      scout_id: sam.id,
      memo: 'Reverses: Entered twice',
    })
    expect(await balanceOf({ scout_id: sam.id })).toBe(0)
    expect((await s.lastLog('money.reverse')).summary).toContain(`Reversed entry ${charge.id}`)
    const again = await s.req('POST', `/api/admin/money/entries/${charge.id}/reverse`, {
      cookie: packLeader.cookie,
      json: { memo: 'Again' },
    })
    expect(codeOf(again, 409)).toBe('already_reversed')
    const back = await s.req('POST', `/api/admin/money/entries/${undo.body.entry.id}/reverse`, { cookie: packLeader.cookie, json: {} })
    expect(codeOf(back, 409)).toBe('is_reversal')
    const listed = await s.req('GET', `/api/admin/money/entries?scout_id=${sam.id}`, { cookie: packLeader.cookie })
    expect(listed.body.entries.map((e: any) => [e.id, e.reversed_by_id, e.reverses_id])).toEqual([
      [undo.body.entry.id, null, charge.id],
      [charge.id, undo.body.entry.id, null],
    ])
  })

  it('answers 404 for no such entry and 403 to a leader of another unit', async () => {
    expectDetail(await s.req('POST', '/api/admin/money/entries/999999/reverse', { cookie: packLeader.cookie, json: {} }), 404)
    const h = await addHousehold(s.db, { unit: 'pack', email: null })
    const [sam] = await scoutsOf(h)
    const charge = (await entry({ scout_id: sam.id, kind: 'charge', amount_cents: 100, date: DAY, memo: 'X' })).body.entry
    const res = await s.req('POST', `/api/admin/money/entries/${charge.id}/reverse`, { cookie: troopLeader.cookie, json: {} })
    expect(codeOf(res, 403)).toBe('unit_out_of_scope')
  })
})

describe('GET /api/admin/money/entries', () => {
  it('pages newest first, filters by household, scout and event, and shows a leader only their units’ families', async () => {
    const packHome = await addHousehold(s.db, { unit: 'pack', email: null, scouts: 2 })
    const troopHome = await addHousehold(s.db, { unit: 'troop', email: null })
    const [a, b] = await scoutsOf(packHome)
    const [t] = await scoutsOf(troopHome)
    await s.db.insertInto('calendar_uids').values({ uid: 'money-test-campout', created_at: new Date().toISOString() }).execute()
    for (let i = 0; i < 7; i++) await entry({ scout_id: i % 2 ? a.id : b.id, kind: 'charge', amount_cents: 100, date: DAY, memo: `P${i}` })
    await entry({ scout_id: a.id, kind: 'charge', amount_cents: 100, date: DAY, memo: 'Trip', event_uid: 'money-test-campout' })
    await entry({ scout_id: t.id, kind: 'charge', amount_cents: 100, date: DAY, memo: 'Troop' }, troopLeader.cookie)
    const get = (path: string) => s.req('GET', path, { cookie: packLeader.cookie })
    const ids = (await walkPages(get, `/api/admin/money/entries?household_id=${packHome}`, 3, (b) => b.entries)).map((e: any) => e.id)
    expect(ids.length).toBe(8)
    expect([...ids].sort((x, y) => y - x)).toEqual(ids)
    const bySco = await s.req('GET', `/api/admin/money/entries?scout_id=${a.id}`, { cookie: packLeader.cookie })
    expect(bySco.body.entries.length).toBe(4)
    const byEvent = await s.req('GET', '/api/admin/money/entries?event_uid=money-test-campout', { cookie: packLeader.cookie })
    expect(byEvent.body.entries.map((e: any) => e.memo)).toEqual(['Trip'])
    const troopSeen = await s.req('GET', `/api/admin/money/entries?household_id=${troopHome}`, { cookie: packLeader.cookie })
    expect(troopSeen.body.entries).toEqual([])
    expect((await s.req('GET', `/api/admin/money/entries?household_id=${troopHome}`, { cookie: admin.cookie })).body.entries.length).toBe(1)
    expect(codeOf(await s.req('GET', '/api/admin/money/entries?unit=troop', { cookie: packLeader.cookie }), 403)).toBe('unit_out_of_scope')
    expectDetail(
      await s.req('GET', `/api/admin/money/entries?scout_id=${a.id}&household_id=${packHome}`, { cookie: packLeader.cookie }),
      422,
    )
  })
})

describe('GET /api/admin/money/accounts', () => {
  it('lists a row per household (its scouts’ entries included) and per scout, with a payment reference and totals', async () => {
    const { accounts: list, totals } = await accounts('?unit=pack', admin.cookie)
    const households = list.filter((a) => !('scout_id' in a))
    expect(households.length).toBeGreaterThan(0)
    for (const h of households) {
      expect(h.payment_reference).toMatch(/^[0-9A-F]{8}$/)
      const own = list.filter((a) => a.household_id === h.household_id && 'scout_id' in a)
      expect(own.length).toBeGreaterThan(0)
      expect(own.every((o) => o.unit === 'pack' && o.payment_reference === h.payment_reference)).toBe(true)
    }
    expect(new Set(households.map((h) => h.payment_reference)).size).toBe(households.length)
    expect(totals.owed_cents).toBe(households.filter((h) => h.balance_cents > 0).reduce((n, h) => n + h.balance_cents, 0))
    expect(totals.credit_cents).toBe(households.filter((h) => h.balance_cents < 0).reduce((n, h) => n - h.balance_cents, 0))
    expect(codeOf(await s.req('GET', '/api/admin/money/accounts?unit=pack', { cookie: troopLeader.cookie }), 403)).toBe('unit_out_of_scope')
    const troopOnly = await accounts('', troopLeader.cookie)
    expect(troopOnly.accounts.every((a) => a.unit === 'troop')).toBe(true)
  })
})

describe('POST /api/admin/money/dues', () => {
  it('charges each scout of the unit once a program year, then only those added since; ticks dues when covered', async () => {
    const { year } = await (await import('../../server/roster/queries.ts')).programYear(s.db)
    const prepaid = await addHousehold(s.db, { unit: 'troop', email: null, scouts: [{ first_name: 'Ada' }] })
    const later = await addHousehold(s.db, { unit: 'troop', email: null, scouts: [{ first_name: 'Ben' }] })
    const [ada] = await scoutsOf(prepaid)
    const [ben] = await scoutsOf(later)
    await entry(
      { household_id: prepaid, kind: 'payment', amount_cents: 8000, date: DAY, memo: 'Paid ahead', method: 'check' },
      troopLeader.cookie,
    )
    const dues = { unit: 'troop', program_year: year, amount_cents: 7500, due_on: '2026-12-31' }
    const first = await s.req('POST', '/api/admin/money/dues', { cookie: troopLeader.cookie, json: dues })
    expect(first.status).toBe(200)
    const names = first.body.charged.map((c: any) => c.scout_id)
    expect(names).toContain(ada.id)
    expect(names).toContain(ben.id)
    expect((await s.lastLog('money.dues')).summary).toContain('dues now done for Ada')
    const check = (scoutId: number) =>
      s.db
        .selectFrom('checks')
        .selectAll()
        .where('scout_id', '=', scoutId)
        .where('item', '=', 'dues')
        .where('year', '=', year)
        .executeTakeFirst()
    expect((await check(ada.id))?.done).toBe(1)
    expect(await check(ben.id)).toBeUndefined()
    const newcomer = await addHousehold(s.db, { unit: 'troop', email: null, scouts: [{ first_name: 'Cy' }] })
    const [cy] = await scoutsOf(newcomer)
    const second = await s.req('POST', '/api/admin/money/dues', { cookie: troopLeader.cookie, json: dues })
    expect(second.body.charged).toEqual([{ scout_id: cy.id, name: 'Cy' }])
    expect(second.body.already_charged.map((c: any) => c.scout_id)).toEqual(expect.arrayContaining([ada.id, ben.id]))
    // Ben pays: his dues check is ticked by itself; the payment reversed, it is unticked again.
    const paid = (
      await entry({ scout_id: ben.id, kind: 'payment', amount_cents: 7500, date: DAY, memo: 'Dues', method: 'cash' }, troopLeader.cookie)
    ).body.entry
    expect((await check(ben.id))?.done).toBe(1)
    await s.req('POST', `/api/admin/money/entries/${paid.id}/reverse`, { cookie: troopLeader.cookie, json: {} })
    expect((await check(ben.id))?.done).toBe(0)
    // A check a leader ticked by hand stays ticked whatever the ledger says.
    await s.req('PUT', `/api/admin/roster/scouts/${cy.id}/checks/dues`, {
      cookie: troopLeader.cookie,
      json: { done: true, note: 'Scholarship' },
    })
    await entry({ scout_id: cy.id, kind: 'charge', amount_cents: 500, date: DAY, memo: 'Patch' }, troopLeader.cookie)
    expect((await check(cy.id))?.done).toBe(1)
    expect(codeOf(await s.req('POST', '/api/admin/money/dues', { cookie: packLeader.cookie, json: dues }), 403)).toBe('unit_out_of_scope')
    expectDetail(await s.req('POST', '/api/admin/money/dues', { cookie: troopLeader.cookie, json: { ...dues, amount_cents: 0 } }), 422)
  })
})

describe("the treasurer's report", () => {
  it('totals a period by kind, event and method with reversals taken off, and each account’s opening and closing balance', async () => {
    const h = await addHousehold(s.db, { unit: 'troop', email: null, parent_name: 'Zoë Ñúñez', scouts: [{ first_name: 'Álvaro' }] })
    const [kid] = await scoutsOf(h)
    const uid = `report-trip-${Date.now()}`
    await s.db.insertInto('calendar_uids').values({ uid, created_at: new Date().toISOString() }).execute()
    await s.db
      .insertInto('rsvp_events')
      .values({
        uid,
        title: 'Winter trip',
        date: '2026-03-10',
        time: null,
        location: null,
        starts_at: '2026-03-10T15:00:00.000Z',
        asking: 1,
        asked_by: 'test',
        asked_at: new Date().toISOString(),
        gone_at: null,
      })
      .execute()
    const write = (json: Record<string, unknown>) => entry({ scout_id: kid.id, ...json }, troopLeader.cookie)
    await write({ kind: 'charge', amount_cents: 1000, date: '2026-01-15', memo: 'Before' })
    await write({ kind: 'charge', amount_cents: 6000, date: '2026-03-01', memo: 'Trip', event_uid: uid })
    await write({
      kind: 'payment',
      amount_cents: 4000,
      date: '2026-03-02',
      memo: 'Trip',
      event_uid: uid,
      method: 'check',
      reference: '=cmd()',
    })
    const wrong = (await write({ kind: 'payment', amount_cents: 500, date: '2026-03-03', memo: 'Typo', method: 'cash' })).body.entry
    await s.req('POST', `/api/admin/money/entries/${wrong.id}/reverse`, { cookie: troopLeader.cookie, json: {} })
    await write({ kind: 'credit', amount_cents: 700, date: '2027-01-05', memo: 'After' })
    // The reversal is dated today, inside a period running 800 days past it; everything else from March 2026.
    const period = `unit=troop&from=2026-02-01&to=${addDays(today(), 800)}`
    const res = await s.req('GET', `/api/admin/money/report?${period}`, { cookie: troopLeader.cookie })
    expect(res.status).toBe(200)
    const mine = res.body.accounts.find((a: any) => a.household_id === h && !('scout_id' in a))
    expect(mine).toMatchObject({ name: 'Zoë Ñúñez', opening_cents: 1000, closing_cents: 1000 + 6000 - 4000 - 700 })
    expect(res.body.by_event).toContainEqual({ event_uid: uid, title: 'Winter trip', charge_cents: 6000, payment_cents: 4000 })
    const cash = res.body.by_method.find((m: any) => m.method === 'cash')
    expect(cash?.payment_cents ?? 0).toBe(0) // paid and reversed
    expect(res.body.totals.closing_cents).toBe(
      res.body.accounts.filter((a: any) => !('scout_id' in a)).reduce((n: number, a: any) => n + a.closing_cents, 0),
    )
    const narrow = await s.req('GET', '/api/admin/money/report?unit=troop&from=2026-03-01&to=2026-03-01', { cookie: troopLeader.cookie })
    expect(narrow.body.accounts.find((a: any) => a.household_id === h && !('scout_id' in a))).toMatchObject({
      opening_cents: 1000,
      closing_cents: 7000,
    })
    const csv = await fetch(`${s.url}/api/admin/money/report.csv?${period}`, { headers: { cookie: troopLeader.cookie } })
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const bytes = new Uint8Array(await csv.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]) // the byte-order mark spreadsheets read as UTF-8
    const text = new TextDecoder().decode(bytes)
    expect(text).toContain('"Zoë Ñúñez"')
    expect(text).toContain('"Álvaro"')
    expect(text).toContain(`"'=cmd()"`)
    expect(text).toContain('"-5"') // a reversal's amount, a number a spreadsheet adds up
    expectDetail(await s.req('GET', '/api/admin/money/report?from=2026-05-01&to=2026-04-01', { cookie: troopLeader.cookie }), 422)
    expect(codeOf(await s.req('GET', '/api/admin/money/report?unit=pack', { cookie: troopLeader.cookie }), 403)).toBe('unit_out_of_scope')
  })
})
