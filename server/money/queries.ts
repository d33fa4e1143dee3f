// Reading the ledger: entries as shown (with what undid them), a page of entries, balances, and which households and
// scouts a caller may see the money of (those with a scout in a unit they lead; admins and owners all).
import { sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { forbidden, notFound, unprocessable } from '../errors.ts'
import { decodeCursor, encodeCursor, PAGE, pageOf } from '../http/paging.ts'
import { ledUnits } from '../auth/led-units.ts'
import { t } from '../schemas.ts'
import { scoutName } from '../words.ts'
import type { AccountQuery, EntryQuery } from './schemas.ts'
import type { MoneyEntry } from './tables.ts'

/** An entry's effect on a balance in SQL, where a positive balance is owed to the unit (reversals count the other way). */
export const signedCents = sql<number>`(case when kind in ('charge', 'refund') then 1 else -1 end)
  * (case when reverses_id is null then 1 else -1 end) * amount_cents`

/** The units whose families' money the caller sees: null for every unit. */
export async function unitsInScope(db: Executor, caller: Caller, slug?: string): Promise<number[] | null> {
  const led = ledUnits(caller)
  if (!slug) return led && [...led]
  const unit = await db
    .selectFrom('units')
    .select('id')
    .where('slug', '=', slug as 'pack')
    .executeTakeFirstOrThrow()
  if (led && !led.has(unit.id)) throw forbidden(`unit: you keep the money of the units you lead, not the ${slug}`, 'unit_out_of_scope')
  return [unit.id]
}

/** 403 unless the household has a scout in a unit the caller leads (admins and owners keep every household's money). */
export async function assertKeepsMoneyOf(db: Executor, caller: Caller, householdId: number) {
  const led = ledUnits(caller)
  if (!led) return
  const units = await db.selectFrom('scouts').select('unit_id').where('household_id', '=', householdId).execute()
  if (!units.some((u) => led.has(u.unit_id))) throw forbidden("This household's scouts are in units you do not lead", 'unit_out_of_scope')
}

export const entryView = (row: MoneyEntry, reversedById: number | null) => {
  const { dues_year: _, origin: __, ...entry } = row
  return { ...entry, reversed_by_id: reversedById }
}

const withReversal = (db: Executor) =>
  db
    .selectFrom('money_entries as e')
    .leftJoin('money_entries as undo', 'undo.reverses_id', 'e.id')
    .selectAll('e')
    .select('undo.id as reversed_by_id')

export async function entryById(db: Executor, id: number) {
  const row = await withReversal(db).where('e.id', '=', id).executeTakeFirst()
  if (!row) throw notFound('No such entry')
  const { reversed_by_id, ...entry } = row
  return entryView(entry, reversed_by_id)
}

/** A cursor's position: the last entry's id (newest first). */
const Position = t.Tuple([t.Integer()])

/** A page of entries, newest first, of the households the caller keeps the money of. */
export async function listEntries(db: Executor, caller: Caller, query: typeof EntryQuery.static) {
  const limit = query.limit ?? PAGE.default
  const after = query.cursor ? decodeCursor('money_entries', query, query.cursor, Position) : undefined
  const units = await unitsInScope(db, caller, query.unit)
  if (query.scout_id !== undefined && query.household_id !== undefined)
    throw unprocessable('scout_id: give scout_id or household_id, not both')
  let q = withReversal(db)
  if (query.scout_id !== undefined) q = q.where('e.scout_id', '=', query.scout_id)
  if (query.household_id !== undefined) q = q.where('e.household_id', '=', query.household_id)
  if (query.event_uid !== undefined) q = q.where('e.event_uid', '=', query.event_uid)
  if (after) q = q.where('e.id', '<', after[0])
  if (units)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('scouts')
          .select('scouts.id')
          .whereRef('scouts.household_id', '=', 'e.household_id')
          .where('scouts.unit_id', 'in', units.length ? units : [0]),
      ),
    )
  const { rows, more } = pageOf(
    await q
      .orderBy('e.id', 'desc')
      .limit(limit + 1)
      .execute(),
    limit,
  )
  return {
    entries: rows.map(({ reversed_by_id, ...entry }) => entryView(entry, reversed_by_id)),
    next_cursor: more ? encodeCursor('money_entries', query, [rows.at(-1)!.id]) : null,
  }
}

/** A household's balance and each of its scouts' own, in cents (positive: owed to the unit). */
export async function balancesOf(db: Executor, householdId: number) {
  const rows = await db
    .selectFrom('money_entries')
    .select(['scout_id', sql<number>`sum(${signedCents})`.as('cents')])
    .where('household_id', '=', householdId)
    .groupBy('scout_id')
    .execute()
  const scouts = new Map(rows.filter((r) => r.scout_id !== null).map((r) => [r.scout_id!, Number(r.cents)]))
  return { household: rows.reduce((sum, r) => sum + Number(r.cents), 0), scouts }
}

/**
 * One account per household with a scout in the units asked about (its balance is everything the household owes) and
 * one per such scout (its own entries); totals add up the households, so nothing counts twice.
 */
export async function listAccounts(db: Executor, caller: Caller, query: typeof AccountQuery.static) {
  const units = await unitsInScope(db, caller, query.unit)
  let scoutsQ = db
    .selectFrom('scouts')
    .innerJoin('households', 'households.id', 'scouts.household_id')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select([
      'scouts.id as scout_id',
      'scouts.first_name',
      'scouts.last_name',
      'scouts.preferred_name',
      'households.id as household_id',
      'households.parent_name',
      'households.payment_reference',
      'units.slug as unit',
    ])
    .where('households.active', '=', 1)
  if (units) scoutsQ = scoutsQ.where('scouts.unit_id', 'in', units.length ? units : [0])
  const scouts = await scoutsQ.orderBy('households.parent_name').orderBy('households.id').orderBy('scouts.id').execute()
  const householdIds = [...new Set(scouts.map((s) => s.household_id))]
  const sums = householdIds.length
    ? await db
        .selectFrom('money_entries')
        .select(['household_id', 'scout_id', sql<number>`sum(${signedCents})`.as('cents')])
        .where('household_id', 'in', householdIds)
        .groupBy(['household_id', 'scout_id'])
        .execute()
    : []
  const householdBalance = new Map<number, number>()
  const scoutBalance = new Map<number, number>()
  for (const s of sums) {
    householdBalance.set(s.household_id, (householdBalance.get(s.household_id) ?? 0) + Number(s.cents))
    if (s.scout_id !== null) scoutBalance.set(s.scout_id, Number(s.cents))
  }
  const accounts = []
  const totals = { owed_cents: 0, credit_cents: 0 }
  let last: number | null = null
  for (const s of scouts) {
    if (s.household_id !== last) {
      last = s.household_id
      const balance = householdBalance.get(s.household_id) ?? 0
      if (balance > 0) totals.owed_cents += balance
      else totals.credit_cents -= balance
      accounts.push({
        household_id: s.household_id,
        payment_reference: s.payment_reference,
        name: s.parent_name,
        unit: s.unit,
        balance_cents: balance,
      })
    }
    accounts.push({
      scout_id: s.scout_id,
      household_id: s.household_id,
      payment_reference: s.payment_reference,
      name: scoutName(s),
      unit: s.unit,
      balance_cents: scoutBalance.get(s.scout_id) ?? 0,
    })
  }
  return { accounts, totals }
}
