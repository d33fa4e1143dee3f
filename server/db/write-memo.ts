// A retried POST's writes happen once: each write() a request with an Idempotency-Key commits also keeps its result
// in the request's idempotency slot, in the same transaction (server/http/idempotency.ts makes the slot). When the
// process dies after such a commit but before the answer was kept, the retry runs the route again and each write
// the first attempt committed hands back its kept result instead of running twice.
import type { Kysely, KyselyPlugin, Transaction } from 'kysely'
import type { Database } from './database.ts'

type Trx = Transaction<Database>

export interface WriteMemo {
  /** Each committed write's result, in order (`{ v }`, so undefined survives JSON): earlier attempts' and this one's. */
  readonly done: { v?: unknown }[]
  /** How many of `done` this attempt has handed back or added. */
  next: number
  /** Keeps `done` in the slot inside the write's transaction. */
  keep(trx: Trx, done: { v?: unknown }[]): Promise<void>
}

const memos = new WeakMap<object, WriteMemo>()

// A plugin that changes nothing: withPlugin gives a Kysely of its own (same connection) to tie the memo to.
const PASS: KyselyPlugin = { transformQuery: ({ node }) => node, transformResult: async ({ result }) => result }

/** The database as one request's handler sees it: its writes are kept in `memo`. */
export function rememberingDb(db: Kysely<Database>, memo: WriteMemo): Kysely<Database> {
  const mine = db.withPlugin(PASS)
  memos.set(mine, memo)
  return mine
}

export const memoOf = (db: object): WriteMemo | undefined => memos.get(db)

/** The result as it will read back from the slot, or null when JSON cannot carry it (that write is not kept). */
export function keepable(result: unknown): { v?: unknown } | null {
  try {
    const text = JSON.stringify({ v: result })
    return JSON.parse(text) as { v?: unknown }
  } catch {
    return null
  }
}
