// The copy taken before migrations change a database that already holds data, kept outside the daily rotation.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { type MigrationInfo, sql } from 'kysely'
import type { Db } from '../db/client.ts'
import { logEvent } from '../ops/log.ts'
import { copyDatabase } from './copy.ts'
import { backupName, prune, stemOf } from './files.ts'
import { recordBackup } from './status.ts'

export interface BeforeMigration {
  dir: string
  /** The database file's name without extension, as backups are named. */
  stem: string
  name: string
  bytes: number
  startedAt: number
}

/**
 * Copies the database into the backup folder when migrations are pending and some already ran (a new, empty
 * database needs no copy). Throws when the copy cannot be made: better not to start than to migrate without one.
 */
export async function backupBeforeMigrating(
  db: Db,
  migrations: readonly MigrationInfo[],
  backupDir?: string,
): Promise<BeforeMigration | null> {
  const pending = migrations.filter((m) => !m.executedAt).length
  if (pending === 0 || pending === migrations.length) return null
  const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db)
  const file = rows.find((r) => r.name === 'main')?.file
  if (!file) return null // in memory
  const dir = backupDir ?? path.join(path.dirname(file), 'backups')
  const startedAt = Date.now()
  const stem = stemOf(file)
  const name = backupName(stem, startedAt, 'before-migration')
  try {
    mkdirSync(dir, { recursive: true })
    const bytes = await copyDatabase(db, path.join(dir, name))
    logEvent('backup.run', {
      ok: true,
      reason: 'before-migration',
      file: name,
      bytes,
      message: `Backed up the database to ${path.join(dir, name)} before migrating it`,
    })
    return { dir, stem, name, bytes, startedAt }
  } catch (error) {
    throw new Error(
      `Could not back up ${file} before migrating it (${error instanceof Error ? error.message : error}); nothing was changed. ` +
        'Make the backup folder (BACKUP_DIR) writable and start again.',
    )
  }
}

/** After the migrations ran (the backups table exists now): records the copy and keeps the newest few of its kind. */
export async function recordBeforeMigration(db: Db, copy: BeforeMigration, applied: string[]): Promise<void> {
  await recordBackup(
    db,
    'before-migration',
    copy.startedAt,
    { ok: true, name: copy.name, bytes: copy.bytes },
    {
      kind: 'backups.before_migration',
      summary: `Copied the database to ${copy.name} before applying ${applied.join(', ')}`,
    },
  )
  prune(copy.dir, copy.stem, Number.POSITIVE_INFINITY)
}
