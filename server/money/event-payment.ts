// An event's payment route (PUT …/rsvps/{household_id}/payment) records what a household has paid in all for the event;
// the ledger follows that total with one household-level payment entry (decision 0134), in the route's transaction.
import type { Executor } from '../db/database.ts'
import { today } from '../settings/registry.ts'
import { dayWords, dollars } from '../words.ts'
import { insertEntry, insertReversal } from './commands.ts'
import { settleDues } from './dues-checks.ts'
import type { PayMethod } from './tables.ts'

/**
 * Brings the household's ledger payment for the event in line with the total recorded: an open entry saying the same
 * amount and method stays; any other is reversed, and a total above zero is written as a new entry. Answers words for
 * the action-log entry ("; ledger: payment of $50.00 entered").
 */
export async function settleEventPayment(
  trx: Executor,
  actor: string,
  event: { uid: string; title: string; date: string },
  household: number,
  paid: { paid_cents: number; method?: PayMethod; note: string | null },
): Promise<string> {
  const method = paid.method ?? 'other'
  const open = await trx
    .selectFrom('money_entries as e')
    .selectAll('e')
    .where('e.event_uid', '=', event.uid)
    .where('e.household_id', '=', household)
    .where('e.origin', '=', 'event_payment')
    .where('e.reverses_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('money_entries as undo').select('undo.id').whereRef('undo.reverses_id', '=', 'e.id'))),
    )
    .orderBy('e.id')
    .execute()
  const keep = open.find((e) => e.amount_cents === paid.paid_cents && e.method === method)
  const words: string[] = []
  for (const entry of open.filter((e) => e !== keep)) {
    await insertReversal(trx, actor, entry, `Reverses: ${entry.memo} (the total paid changed)`)
    words.push(`payment of ${dollars(entry.amount_cents)} reversed`)
  }
  if (!keep && paid.paid_cents > 0) {
    await insertEntry(trx, actor, {
      household_id: household,
      scout_id: null,
      kind: 'payment',
      amount_cents: paid.paid_cents,
      date: await today(trx),
      memo: `Paid for ${event.title}, ${dayWords(event.date, { year: true })}`,
      event_uid: event.uid,
      method,
      reference: paid.note,
      origin: 'event_payment',
    })
    words.push(`payment of ${dollars(paid.paid_cents)} entered`)
  }
  if (!words.length) return ''
  return `; ledger: ${words.join(', ')}${await settleDues(trx, actor, household)}`
}
