// The roster's dues check follows the ledger for units that charge dues with amounts: a scout whose dues charge is
// covered has the check done by itself, and a check the ledger ticked is unticked when a reversal uncovers it again.
// A check a leader ticked by hand is never touched.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { nowIso } from '../schemas.ts'
import { listWords } from '../words.ts'
import { balancesOf } from './queries.ts'

/** The note on a dues check the ledger ticked, which is how it knows the tick is its own. */
export const LEDGER_NOTE = 'Paid: the money ledger shows the dues covered'

/**
 * Brings the dues checks of a household's scouts in line with its balances, inside the caller's transaction; answers
 * words for the action-log entry ("; dues now done for Jamie") or ''. Covered: the scout's own balance, or the
 * household's as a whole, owes nothing.
 */
export async function settleDues(trx: Executor, actor: string, householdId: number): Promise<string> {
  const charges = await trx
    .selectFrom('money_entries as e')
    .innerJoin('scouts', 'scouts.id', 'e.scout_id')
    .leftJoin('checks', (j) =>
      j.onRef('checks.scout_id', '=', 'e.scout_id').onRef('checks.year', '=', 'e.dues_year').on('checks.item', '=', 'dues'),
    )
    .select(['e.scout_id', 'e.dues_year', 'scouts.first_name', 'checks.done', 'checks.note'])
    .where('e.household_id', '=', householdId)
    .where('e.dues_year', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('money_entries as undo').select(sql.lit(1).as('x')).whereRef('undo.reverses_id', '=', 'e.id'))),
    )
    .execute()
  if (!charges.length) return ''
  const balances = await balancesOf(trx, householdId)
  const done: string[] = []
  const undone: string[] = []
  for (const c of charges) {
    const covered = balances.household <= 0 || (balances.scouts.get(c.scout_id!) ?? 0) <= 0
    if (covered && !c.done) {
      const check = { done: 1, note: LEDGER_NOTE, form_date: null, recorded_by: actor, recorded_at: nowIso() }
      await trx
        .insertInto('checks')
        .values({ scout_id: c.scout_id!, year: c.dues_year!, item: 'dues', ...check })
        .onConflict((oc) => oc.columns(['scout_id', 'year', 'item']).doUpdateSet(check))
        .execute()
      done.push(c.first_name)
    } else if (!covered && c.done && c.note === LEDGER_NOTE) {
      await trx
        .updateTable('checks')
        .set({ done: 0, recorded_by: actor, recorded_at: nowIso() })
        .where('scout_id', '=', c.scout_id!)
        .where('year', '=', c.dues_year!)
        .where('item', '=', 'dues')
        .execute()
      undone.push(c.first_name)
    }
  }
  return (
    (done.length ? `; dues now done for ${listWords(done)}` : '') +
    (undone.length ? `; dues no longer covered for ${listWords(undone)}` : '')
  )
}
