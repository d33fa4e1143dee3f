// The backups table's type (composed into Database by db/database.ts).
import type { Generated } from 'kysely'

export interface BackupTable {
  id: Generated<number>
  started_at: string
  finished_at: string
  reason: 'daily' | 'catch-up' | 'before-migration'
  ok: number
  /** The file's name in the backup folder; null when the attempt failed. */
  file: string | null
  bytes: number | null
  error: string | null
}
