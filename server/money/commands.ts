// Writing the ledger: an entry, the reversal that undoes one, and the year's dues for a unit. Entries are never edited
// or deleted. Each write is one transaction with its action-log entry, and settles the dues checks it affects.
import type { Insertable } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden, unprocessable } from '../errors.ts'
import { ledUnits } from '../auth/led-units.ts'
import { nowIso } from '../schemas.ts'
import { today } from '../settings/registry.ts'
import { dollars, plural, scoutName } from '../words.ts'
import { assertKeepsMoneyOf, entryById } from './queries.ts'
import type { DuesBody, NewEntry } from './schemas.ts'
import type { MoneyEntry, MoneyEntryTable } from './tables.ts'
import { settleDues } from './dues-checks.ts'

type EntryFields = Omit<Insertable<MoneyEntryTable>, 'id' | 'created_by' | 'created_at'>

/** Adds one entry as `actor` wrote it, inside the caller's transaction; answers its id. */
export async function insertEntry(trx: Executor, actor: string, fields: EntryFields): Promise<number> {
  const row = await trx
    .insertInto('money_entries')
    .values({ ...fields, created_by: actor, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

const KIND_WORDS = { charge: 'Charge', payment: 'Payment', credit: 'Credit', refund: 'Refund' } as const

/** The household an entry is for, and its scout's name: 422 for one that does not exist, 403 outside the caller's units. */
async function ownerOf(trx: Executor, caller: Caller, input: { scout_id: number } | { household_id: number }) {
  if ('scout_id' in input) {
    const scout = await trx.selectFrom('scouts').selectAll().where('id', '=', input.scout_id).executeTakeFirst()
    if (!scout) throw unprocessable(`scout_id: no scout ${input.scout_id}`)
    const led = ledUnits(caller)
    if (led && !led.has(scout.unit_id)) throw forbidden('scout_id: this scout is in a unit you do not lead', 'unit_out_of_scope')
    return { household_id: scout.household_id, scout_id: scout.id, who: scoutName(scout) }
  }
  const household = await trx.selectFrom('households').select(['id', 'parent_name']).where('id', '=', input.household_id).executeTakeFirst()
  if (!household) throw unprocessable(`household_id: no household ${input.household_id}`)
  await assertKeepsMoneyOf(trx, caller, household.id)
  return { household_id: household.id, scout_id: null, who: `${household.parent_name}'s household` }
}

export async function addEntry(db: Db, caller: Caller, input: typeof NewEntry.static) {
  if (input.method && (input.kind === 'charge' || input.kind === 'credit'))
    throw unprocessable(`method: only a payment or a refund is paid some way; a ${input.kind} has no method`)
  const id = await write(db, async (trx) => {
    const owner = await ownerOf(trx, caller, input)
    if (input.event_uid && !(await trx.selectFrom('calendar_uids').select('uid').where('uid', '=', input.event_uid).executeTakeFirst()))
      throw unprocessable(`event_uid: no event ${input.event_uid}`)
    const entryId = await insertEntry(trx, caller.actor, {
      household_id: owner.household_id,
      scout_id: owner.scout_id,
      kind: input.kind,
      amount_cents: input.amount_cents,
      date: input.date,
      memo: input.memo.trim(),
      event_uid: input.event_uid ?? null,
      method: input.method ?? null,
      reference: input.reference ?? null,
    })
    const settled = await settleDues(trx, caller.actor, owner.household_id)
    await record(
      trx,
      caller.actor,
      'money.entry',
      `${KIND_WORDS[input.kind]} of ${dollars(input.amount_cents)}, ${owner.who}: ${input.memo.trim()}${settled}`,
    )
    return entryId
  })
  return { entry: await entryById(db, id) }
}

/**
 * Writes the entry undoing `entry` inside the caller's transaction: the same kind, amount, owner and event, dated today,
 * counting the other way. The caller has checked it may be undone (not a reversal, not reversed yet).
 */
export async function insertReversal(trx: Executor, actor: string, entry: MoneyEntry, memo?: string): Promise<number> {
  return insertEntry(trx, actor, {
    household_id: entry.household_id,
    scout_id: entry.scout_id,
    kind: entry.kind,
    amount_cents: entry.amount_cents,
    date: await today(trx),
    memo: memo?.trim() || `Reverses: ${entry.memo}`,
    event_uid: entry.event_uid,
    method: entry.method,
    reference: entry.reference,
    reverses_id: entry.id,
    origin: entry.origin,
  })
}

/** A new entry undoing `id`: the same kind, amount and owner, counting the other way. An entry is undone once. */
export async function reverseEntry(db: Db, caller: Caller, id: number, memo?: string) {
  const newId = await write(db, async (trx) => {
    const entry = await entryById(trx, id)
    await assertKeepsMoneyOf(trx, caller, entry.household_id)
    if (entry.reverses_id !== null) throw conflict(`Entry ${id} is itself a reversal; enter the amount again instead`, 'is_reversal')
    if (entry.reversed_by_id !== null)
      throw conflict(`Entry ${id} was reversed already (entry ${entry.reversed_by_id})`, 'already_reversed')
    const row = await trx.selectFrom('money_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const reversalId = await insertReversal(trx, caller.actor, row, memo)
    const settled = await settleDues(trx, caller.actor, entry.household_id)
    await record(
      trx,
      caller.actor,
      'money.reverse',
      `Reversed entry ${id} (${entry.kind} of ${dollars(entry.amount_cents)}: ${entry.memo})${settled}`,
    )
    return reversalId
  })
  return { entry: await entryById(db, newId) }
}

/** Charges every scout of the unit's active households once for the program year; run again, only those added since. */
export async function chargeDues(db: Db, caller: Caller, input: typeof DuesBody.static) {
  return write(db, async (trx) => {
    const unit = await trx.selectFrom('units').select(['id', 'name']).where('slug', '=', input.unit).executeTakeFirstOrThrow()
    const led = ledUnits(caller)
    if (led && !led.has(unit.id)) throw forbidden(`unit: you charge dues in the units you lead, not the ${input.unit}`, 'unit_out_of_scope')
    const scouts = await trx
      .selectFrom('scouts')
      .innerJoin('households', 'households.id', 'scouts.household_id')
      .leftJoin('money_entries as dues', (j) =>
        j.onRef('dues.scout_id', '=', 'scouts.id').on('dues.dues_year', '=', input.program_year).on('dues.reverses_id', 'is', null),
      )
      .select(['scouts.id', 'scouts.household_id', 'scouts.first_name', 'scouts.preferred_name', 'scouts.last_name', 'dues.id as dues_id'])
      .where('scouts.unit_id', '=', unit.id)
      .where('households.active', '=', 1)
      .orderBy('scouts.last_name')
      .orderBy('scouts.first_name')
      .execute()
    const label = `${input.program_year}–${String(input.program_year + 1).slice(-2)}`
    const date = await today(trx)
    const charged = []
    const already = []
    for (const scout of scouts) {
      const named = { scout_id: scout.id, name: scoutName(scout) }
      if (scout.dues_id !== null) {
        already.push(named)
        continue
      }
      await insertEntry(trx, caller.actor, {
        household_id: scout.household_id,
        scout_id: scout.id,
        kind: 'charge',
        amount_cents: input.amount_cents,
        date,
        memo: `Dues ${label}, due ${input.due_on}`,
        dues_year: input.program_year,
      })
      charged.push(named)
    }
    let settled = ''
    for (const household of new Set(scouts.filter((s) => s.dues_id === null).map((s) => s.household_id)))
      settled += await settleDues(trx, caller.actor, household)
    await record(
      trx,
      caller.actor,
      'money.dues',
      `Charged ${label} dues of ${dollars(input.amount_cents)} to ${plural(charged.length, 'scout')} of the ${unit.name}` +
        (already.length ? ` (${plural(already.length, 'scout')} charged before)` : '') +
        settled,
    )
    return { program_year: input.program_year, amount_cents: input.amount_cents, charged, already_charged: already }
  })
}
