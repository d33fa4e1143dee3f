// A household's statement: each scout's entries and balance, the family-level entries, what the household owes, and
// how to pay. The family page shows it, and the treasurer's reminders mail it.
import type { Executor } from '../db/database.ts'
import { renderMarkdown } from '../mail/markdown.ts'
import { programYear } from '../roster/queries.ts'
import { getSetting } from '../settings/registry.ts'
import { scoutName } from '../words.ts'
import { payLinks } from './pay-links.ts'
import { KIND_SIGN } from './tables.ts'

export interface StatementLine {
  id: number
  date: string
  kind: 'charge' | 'payment' | 'credit' | 'refund'
  memo: string
  /** The effect on what is owed, in cents: positive adds to it. */
  cents: number
}

const signed = (e: { kind: StatementLine['kind']; amount_cents: number; reverses_id: number | null }) =>
  KIND_SIGN[e.kind] * (e.reverses_id === null ? 1 : -1) * e.amount_cents

/**
 * The statement of a household: entries dated since the start of this program year, earlier ones carried over as one
 * line per account; `owed_cents` is the household's whole balance (positive: owed to the unit).
 */
export async function statementOf(db: Executor, householdId: number) {
  const household = await db
    .selectFrom('households')
    .select(['id', 'parent_name', 'payment_reference'])
    .where('id', '=', householdId)
    .executeTakeFirstOrThrow()
  const scouts = await db
    .selectFrom('scouts')
    .select(['id', 'first_name', 'preferred_name', 'last_name'])
    .where('household_id', '=', householdId)
    .orderBy('id')
    .execute()
  const entries = await db
    .selectFrom('money_entries')
    .selectAll()
    .where('household_id', '=', householdId)
    .orderBy('date')
    .orderBy('id')
    .execute()
  const { year } = await programYear(db)
  const month = String(await getSetting(db, 'roster.year_start_month')).padStart(2, '0')
  const since = `${year}-${month}-01`
  const account = (scoutId: number | null) => {
    const own = entries.filter((e) => e.scout_id === scoutId)
    const carried = own.filter((e) => e.date < since).reduce((n, e) => n + signed(e), 0)
    const lines: StatementLine[] = own
      .filter((e) => e.date >= since)
      .map((e) => ({ id: e.id, date: e.date, kind: e.kind, memo: e.memo, cents: signed(e) }))
    return { carried_cents: carried, lines, balance_cents: own.reduce((n, e) => n + signed(e), 0) }
  }
  const owed = entries.reduce((n, e) => n + signed(e), 0)
  return {
    household_id: household.id,
    parent_name: household.parent_name,
    payment_reference: household.payment_reference,
    since,
    scouts: scouts
      .map((s) => ({ scout_id: s.id, name: scoutName(s), ...account(s.id) }))
      .filter((s) => s.lines.length || s.balance_cents || s.carried_cents),
    family: account(null),
    owed_cents: owed,
    pay:
      owed > 0
        ? await payLinks(db, { amount_cents: owed, memo: `${household.parent_name} household`, reference: household.payment_reference })
        : [],
    instructions: owed > 0 ? await getSetting(db, 'payments.instructions') : null,
  }
}
export type Statement = Awaited<ReturnType<typeof statementOf>>

/** The statements of the caller's own households that have any entry, instructions as sanitised HTML: the family page's. */
export async function familyStatements(db: Executor, householdIds: number[]) {
  const withEntries = householdIds.length
    ? (await db.selectFrom('money_entries').select('household_id').distinct().where('household_id', 'in', householdIds).execute()).map(
        (r) => r.household_id,
      )
    : []
  const statements = []
  for (const id of withEntries.sort((a, b) => a - b)) {
    const statement = await statementOf(db, id)
    statements.push({ ...statement, instructions: statement.instructions && renderMarkdown(statement.instructions) })
  }
  return { statements }
}
