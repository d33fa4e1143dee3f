// A full disk, seen: how much room the database's disk and the backup folder have, whether the database's disk
// can still be written, and the one place that tells a full disk's error (SQLite's or the file system's) from others.
import { existsSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** What every answer, health check and refused start says when the database cannot grow. */
export const DISK_FULL = 'The disk holding the database is full; free some space on it and writes work again'

/** Above this much free space the disk is not asked to prove it can be written (a probe costs a file write). */
export const FREE_FLOOR_BYTES = 64 * 1024 * 1024

/** About what one write (a few WAL frames) needs: a disk that cannot take this cannot take a write. */
const PROBE_BYTES = 64 * 1024

/** SQLite's and the file system's codes for "no room": the one list every caller goes by. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'])

/** The bytes a non-root writer may still use on the disk holding `target` (its nearest existing folder); null when unknown. */
export function freeBytes(target: string): number | null {
  let dir = path.resolve(target)
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir)
  try {
    const stats = statfsSync(dir)
    return stats.bavail * stats.bsize
  } catch {
    return null
  }
}

/**
 * Whether the disk holding the database refuses writes: below FREE_FLOOR_BYTES, a probe file beside the database
 * must fit (root may write into space statfs calls unavailable, so a low figure alone is not proof).
 * Gives DISK_FULL or null.
 */
export function diskFullAt(databasePath: string): string | null {
  const free = freeBytes(path.dirname(path.resolve(databasePath)))
  if (free === null || free >= FREE_FLOOR_BYTES) return null
  const probe = `${path.resolve(databasePath)}.space-probe`
  try {
    writeFileSync(probe, new Uint8Array(PROBE_BYTES))
    return null
  } catch (error) {
    if (isDiskFull(error)) return DISK_FULL
    throw error
  } finally {
    rmSync(probe, { force: true })
  }
}

/**
 * Whether an error is the disk being full. SQLITE_IOERR's variants count too when the database's disk is in fact
 * out of room (SQLite reports a failed write of the WAL or a file growing that way on some systems).
 */
export function isDiskFull(error: unknown, databasePath?: string): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return false
  if (FULL_CODES.has(code)) return true
  if (!code.startsWith('SQLITE_IOERR') || databasePath === undefined) return false
  try {
    return diskFullAt(databasePath) !== null
  } catch {
    return false // the folder cannot be probed (permissions): not a full disk that we can tell
  }
}
