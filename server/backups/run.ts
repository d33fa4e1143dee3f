// One backup run: a checked copy into the backup folder, rotation, and the attempt recorded.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Db } from '../db/client.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { tidyDatabase } from '../ops/tidy.ts'
import { pruneExpired } from '../ops/retention.ts'
import { getSetting } from '../settings/registry.ts'
import { copyDatabase } from './copy.ts'
import { type BackupReason, backupName, prune, stemOf } from './files.ts'
import { backupWithFiles } from './files-copy.ts'
import { type BackupOutcome, recordBackup } from './status.ts'

export interface BackupPlace {
  /** The live database file: backups are named after it. */
  databasePath: string
  /** The backup folder (BACKUP_DIR). */
  dir: string
  /** The uploaded files (FILES_DIR): each backup carries them in a folder beside its database copy. */
  filesDir?: string
}

/** Prunes what is past keeping, tidies the database, takes one backup, keeps the newest `backups.keep`, and records the attempt; never throws. */
export async function runBackup(db: Db, place: BackupPlace, reason: BackupReason, now = Date.now()): Promise<BackupOutcome> {
  const stem = stemOf(place.databasePath)
  try {
    await pruneExpired(db, now)
    await tidyDatabase(db, now)
  } catch (error) {
    logEvent('db.tidy', { ok: false, message: `Could not tidy the database before the backup: ${errorText(error)}` })
  }
  let outcome: BackupOutcome
  try {
    mkdirSync(place.dir, { recursive: true })
    const name = backupName(stem, now, reason)
    const target = path.join(place.dir, name)
    const bytes = place.filesDir
      ? (await backupWithFiles(place.filesDir, target, () => copyDatabase(db, target))).bytes
      : await copyDatabase(db, target)
    prune(place.dir, stem, await getSetting(db, 'backups.keep'))
    outcome = { ok: true, name, bytes }
  } catch (error) {
    outcome = { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  try {
    await recordBackup(db, reason, now, outcome)
  } catch (error) {
    logEvent('backup.run', { ok: false, reason, message: `Could not record the backup: ${errorText(error)}` })
  }
  if (outcome.ok)
    logEvent('backup.run', {
      ok: true,
      reason,
      file: outcome.name,
      bytes: outcome.bytes,
      message: `Backed up the database to ${path.join(place.dir, outcome.name)} (${reason})`,
    })
  else logEvent('backup.run', { ok: false, reason, message: `Backup failed (${reason}): ${outcome.error}` })
  return outcome
}
