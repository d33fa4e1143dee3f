// Writes one action-log entry; call it inside the same transaction as the write it describes.
import type { Kysely, Transaction } from 'kysely'
import { noteWrite } from '../auth/epoch.ts'
import type { Database } from '../db/database.ts'

export type Executor = Kysely<Database> | Transaction<Database>

export async function record(db: Executor, actor: string, kind: string, summary: string): Promise<void> {
  noteWrite(kind)
  await db
    .insertInto('action_log')
    .values({ at: new Date().toISOString(), kind, actor, summary: summary.slice(0, 500) })
    .execute()
}
