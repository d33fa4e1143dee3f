// A consistent copy of the live database (VACUUM INTO a hidden name, fsync, integrity_check, then one rename),
// and the check a copy must pass before it counts as a backup or is restored. The copy and its check run on a
// thread of their own (copy-worker.ts), so a backup of a big database does not stall requests.
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import type { Db } from '../db/client.ts'
import type { CopyJob, CopyResult } from './copy-worker.ts'
import { partialName } from './files.ts'

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]

export function fsyncFile(file: string): void {
  const fd = openSync(file, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Makes a rename durable: the folder's entry is on disk too (some systems refuse to fsync a folder; then it is skipped). */
export function fsyncFolder(dir: string): void {
  try {
    fsyncFile(dir)
  } catch {}
}

/**
 * The rows of one query, its statement finalized at once: a statement left to `query`'s cache keeps the file
 * open after `close()` until garbage collection, and an open file makes `restore` think it is in use.
 */
export function readAll<T>(db: Database, sql: string): T[] {
  const statement = db.prepare(sql)
  try {
    return statement.all() as T[]
  } finally {
    statement.finalize()
  }
}

/**
 * What is wrong with a database file, opened read-only: null when `PRAGMA integrity_check` says ok. With
 * `service: true` it must also be a database of this service (it has the migrations table).
 */
export function checkDatabaseFile(file: string, options: { service?: boolean } = {}): string | null {
  let copy: Database | null = null
  try {
    copy = new Database(file, { readonly: true })
    const rows = readAll<{ integrity_check: string }>(copy, 'PRAGMA integrity_check')
    if (rows.length !== 1 || rows[0].integrity_check !== 'ok')
      return `integrity_check failed: ${rows
        .slice(0, 3)
        .map((r) => r.integrity_check)
        .join('; ')}`
    if (options.service && !readAll(copy, "select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").length)
      return 'it is not a database of this service (no kysely_migration table)'
    return null
  } catch (error) {
    return message(error)
  } finally {
    copy?.close()
  }
}

/**
 * Copies the live database to `target` (which must not exist) and returns its size. The copy is written
 * under a hidden partial name and renamed only after it passed integrity_check, so a half-written or bad
 * file never looks like a backup; a copy that fails the check is removed and the error says so.
 */
export async function copyDatabase(db: Db, target: string): Promise<number> {
  if (existsSync(target)) throw new Error(`${target} exists already`)
  const partial = path.join(path.dirname(target), partialName(path.basename(target)))
  rmSync(partial, { force: true })
  try {
    const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db)
    const source = rows.find((r) => r.name === 'main')?.file
    const problem = source ? await copyOnItsThread({ source, partial }) : await copyHere(db, partial)
    if (problem) throw new Error(`the copy failed its check and was removed: ${problem}`)
    if (existsSync(target)) throw new Error(`${target} exists already`)
    renameSync(partial, target)
    fsyncFolder(path.dirname(target))
    return statSync(target).size
  } catch (error) {
    throw new Error(message(error))
  } finally {
    rmSync(partial, { force: true })
  }
}

/** VACUUM INTO and the check on a thread of their own; resolves with the check's complaint (null: a good copy). */
function copyOnItsThread(job: CopyJob): Promise<string | null> {
  const worker = new Worker(new URL('./copy-worker.ts', import.meta.url).href)
  return new Promise<string | null>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<CopyResult>) =>
      'error' in event.data ? reject(new Error(event.data.error)) : resolve(event.data.problem)
    worker.onerror = (event) => reject(new Error(event.message))
    worker.postMessage(job)
  }).finally(() => worker.terminate())
}

/** A database in memory (tests) has no file another connection could read: it is copied on this thread. */
async function copyHere(db: Db, partial: string): Promise<string | null> {
  await sql`VACUUM INTO ${partial}`.execute(db)
  fsyncFile(partial)
  return checkDatabaseFile(partial)
}
