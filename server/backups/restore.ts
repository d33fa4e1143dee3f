// Putting a backup in place of the database: only while nothing has the database open, only a checked copy of
// this service's database from this version or an older one, and the replaced database kept beside it, whole.
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { openDatabase } from '../db/client.ts'
import { RENAMED_MIGRATIONS } from '../db/renamed-migrations.ts'
import { record } from '../db/write.ts'
import { checkDatabaseFile, fsyncFile, fsyncFolder, readAll } from './copy.ts'
import { stamp } from './files.ts'
import { checkFilesBackup, filesBackupOf, restoreFiles } from './files-copy.ts'
import { claimDatabase } from './service-lock.ts'

const MIGRATIONS = path.join(import.meta.dir, '..', 'db', 'migrations')

/** What makes `backup` unfit to restore, or null. */
function refusal(backup: string, databasePath: string): string | null {
  if (!existsSync(backup)) return `${backup} does not exist`
  if (existsSync(databasePath) && realpathSync(backup) === realpathSync(databasePath)) return `${backup} is the database itself`
  const problem = checkDatabaseFile(backup, { service: true })
  if (problem) return `${backup} cannot be restored: ${problem}`
  // A backup from a newer version would fail to start here: its migrations are unknown to this code. The old names
  // of renamed migrations are known: the start maps them.
  const known = new Set([...readdirSync(MIGRATIONS).map((f) => f.replace(/\.ts$/, '')), ...Object.keys(RENAMED_MIGRATIONS)])
  const copy = new Database(backup, { readonly: true })
  const names = readAll<{ name: string }>(copy, 'select name from kysely_migration').map((r) => r.name)
  copy.close()
  const unknown = names.find((name) => !known.has(name))
  return unknown ? `${backup} comes from a newer version of the service (migration ${unknown} is unknown here)` : null
}

/**
 * Writes the database's WAL into it and turns it back into one file (rollback journal), which also proves no
 * other connection has it open: SQLite refuses the switch (busy) while one does, whatever process holds it and
 * whether or not it left a pid file. False then; a damaged file that cannot be opened counts as not in use.
 */
function writeWalBack(databasePath: string): boolean {
  let old: Database | null = null
  try {
    old = new Database(databasePath, { readwrite: true })
    // A few seconds' grace: a process that has just stopped (a site build finishing after its service) lets go of the file.
    old.exec('PRAGMA busy_timeout = 5000')
    old.exec('PRAGMA journal_mode = DELETE')
    return true
  } catch (error) {
    return !(error as { code?: string }).code?.startsWith('SQLITE_BUSY')
  } finally {
    old?.close()
  }
}

/** Moves the database aside as `<database>.replaced-<time>`, with any side file left (a damaged one) under the matching name. */
function keepReplaced(databasePath: string, now: number): string {
  let kept = `${databasePath}.replaced-${stamp(now)}`
  for (let n = 2; existsSync(kept); n++) kept = `${databasePath}.replaced-${stamp(now)}-${n}`
  renameSync(databasePath, kept)
  for (const suffix of ['-wal', '-shm', '-journal']) if (existsSync(databasePath + suffix)) renameSync(databasePath + suffix, kept + suffix)
  return kept
}

/**
 * Restores `backup` over the database, and its files folder (when it has one) over `filesDir`; returns the line to
 * print, throws an Error whose message is that line.
 */
export async function restoreDatabase(databasePath: string, backup: string, now = Date.now(), filesDir?: string): Promise<string> {
  const release = claimDatabase(databasePath)
  try {
    const problem = refusal(backup, databasePath)
    if (problem) throw new Error(problem)
    const files = filesDir && existsSync(filesBackupOf(backup)) ? filesBackupOf(backup) : null
    const filesProblem = files && (await checkFilesBackup(backup, files))
    if (filesProblem) throw new Error(`${backup} cannot be restored: its files folder is damaged: ${filesProblem}`)
    const existing = existsSync(databasePath)
    if (existing && !writeWalBack(databasePath))
      throw new Error(`${databasePath} is open in another process (a service, a backup or a database shell); stop it first`)
    // Copied under a temporary name and renamed: the database path never holds half a file.
    const incoming = `${databasePath}.restoring`
    try {
      copyFileSync(backup, incoming)
      fsyncFile(incoming)
    } catch (error) {
      rmSync(incoming, { force: true })
      throw error
    }
    const kept = existing ? keepReplaced(databasePath, now) : null
    renameSync(incoming, databasePath)
    fsyncFolder(path.dirname(path.resolve(databasePath)))
    const restoredFiles = files && filesDir ? restoreFiles(backup, filesDir, stamp(now)) : null
    // Not write(): the restore itself is the change (a file swap no transaction holds); this entry goes into the restored file.
    const db = openDatabase(databasePath)
    const keptWords = kept ? `; the replaced database is kept as ${kept}` : ''
    await record(
      db,
      'cli',
      'backups.restore',
      `Restored from ${path.basename(backup)}${kept ? ` (the replaced database is kept as ${path.basename(kept)})` : ''}`,
    )
    await db.destroy()
    // The replaced database's name stays last: scripts read it from the end of the line.
    const what = restoredFiles ? `${databasePath} and its files` : databasePath
    const filesWords = restoredFiles?.kept
      ? `; the replaced files are kept as ${restoredFiles.kept}`
      : filesDir && !restoredFiles
        ? ' (a backup without files: the files were left as they are)'
        : ''
    return `Restored ${what} from ${backup}${filesWords}${keptWords}`
  } finally {
    release()
  }
}
