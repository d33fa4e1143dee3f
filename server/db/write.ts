// Every write and its action-log entry commit together: `write` runs a command in one IMMEDIATE transaction and
// refuses to commit one that recorded nothing, so no write goes unlogged.
import { Transaction } from 'kysely'
import { noteWrite } from './auth-epoch.ts'
import type { HistoryKind } from './history-kinds.ts'
import type { Db } from './client.ts'
import type { Database, Executor } from './database.ts'
import { keepable, memoOf } from './write-memo.ts'

export type Trx = Transaction<Database>

const logged = new WeakSet<Executor>()

/**
 * Writes one action-log entry and gives its id; inside `write`, it commits with the change it describes. Called
 * with the database outside `write`, it logs an event that changed no row (a failed sign-in, a rebuild asked for):
 * the one insert commits by itself, so there is nothing for `write` to hold together.
 */
export async function record(db: Executor, actor: string, kind: HistoryKind, summary: string): Promise<number> {
  noteWrite(kind)
  logged.add(db)
  const row = await db
    .insertInto('action_log')
    .values({ at: new Date().toISOString(), kind, actor, summary: summary.slice(0, 500) })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Says a command found nothing to change (an idempotent repeat), so it has nothing to log. */
export const unchanged = (trx: Trx) => void logged.add(trx)

/**
 * Runs `command` in one transaction (or inside the caller's, when given one); for a request with an
 * Idempotency-Key the transaction also keeps the result in the request's slot. The command records its
 * action-log entry with `record(trx, …)`; a command that changed something without one is a bug, so the
 * transaction rolls back and the request fails loudly instead.
 */
export async function write<T>(db: Db | Trx, command: (trx: Trx) => Promise<T>): Promise<T> {
  if (db instanceof Transaction) return command(db)
  // A retried request's write that an earlier attempt committed is not done again (write-memo.ts).
  const memo = memoOf(db)
  if (memo && memo.next < memo.done.length) return memo.done[memo.next++].v as T
  let kept: { v?: unknown } | null = null
  const result = await db.transaction().execute(async (trx) => {
    const result = await command(trx)
    if (!logged.has(trx)) throw new Error('A write committed no action-log entry; record() it in the same transaction')
    if (memo && memo.next === memo.done.length && (kept = keepable(result))) await memo.keep(trx, [...memo.done, kept])
    return result
  })
  if (memo && kept) memo.next = memo.done.push(kept)
  // A result JSON cannot carry ends the keeping: a retry's writes from here on would be matched to the wrong ones.
  else if (memo) memo.next = Infinity
  return result
}
