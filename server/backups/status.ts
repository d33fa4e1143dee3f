// What the backups table says: recording each attempt (a failure also in the action log) and the last outcome for /healthz.
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record } from '../db/write.ts'
import type { HistoryKind } from '../db/history-kinds.ts'
import type { BackupReason } from './files.ts'

export type BackupOutcome = { ok: true; name: string; bytes: number } | { ok: false; error: string }

/** Attempts kept in the table: about three months of daily ones. */
const ROWS_KEPT = 100
/** With no good backup for this long (a day and a margin), the schedule has stopped working even if no attempt failed. */
export const STALE_AFTER_MS = 26 * 3_600_000

/** Records an attempt; a failure, or a success given `logged` words, also goes to the action log in the same transaction. */
export async function recordBackup(
  db: Db,
  reason: BackupReason,
  startedAt: number,
  outcome: BackupOutcome,
  logged?: { kind: HistoryKind; summary: string },
): Promise<void> {
  // Not write(): a successful backup is the service's own bookkeeping, with no action-log entry unless `logged` asks.
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('backups')
      .values({
        started_at: new Date(startedAt).toISOString(),
        finished_at: new Date().toISOString(),
        reason,
        ok: outcome.ok ? 1 : 0,
        file: outcome.ok ? outcome.name : null,
        bytes: outcome.ok ? outcome.bytes : null,
        error: outcome.ok ? null : outcome.error,
      })
      .execute()
    const keepFrom = await trx.selectFrom('backups').select('id').orderBy('id', 'desc').offset(ROWS_KEPT).limit(1).executeTakeFirst()
    if (keepFrom) await trx.deleteFrom('backups').where('id', '<=', keepFrom.id).execute()
    if (!outcome.ok) await record(trx, 'system', 'backups.failed', `The ${reason} backup failed: ${outcome.error}`)
    else if (logged) await record(trx, 'system', logged.kind, logged.summary)
  })
}

export interface BackupStatus {
  /** False when the newest attempt failed, or when no backup succeeded for 26 hours. */
  ok: boolean
  /** When the newest good backup was finished (ISO 8601), or null when none was taken yet. */
  at: string | null
  /** That backup's file name in the backup folder. */
  file: string | null
  /** What is wrong, when `ok` is false. */
  error: string | null
}

/** The last backup as recorded, for the health check. A database with no attempt yet is ok (the first runs seconds after start). */
export async function lastBackup(db: Executor, now = Date.now()): Promise<BackupStatus> {
  const last = await db.selectFrom('backups').selectAll().orderBy('id', 'desc').executeTakeFirst()
  const good = last?.ok ? last : await db.selectFrom('backups').selectAll().where('ok', '=', 1).orderBy('id', 'desc').executeTakeFirst()
  const at = good?.finished_at ?? null
  const file = good?.file ?? null
  if (last && !last.ok) return { ok: false, at, file, error: `The last backup (${last.finished_at}) failed: ${last.error}` }
  if (at && now - Date.parse(at) > STALE_AFTER_MS) return { ok: false, at, file, error: `No backup since ${at}` }
  return { ok: true, at, file, error: null }
}
