// Families' data stays readable by the service's user only: the database, its WAL, the backups and the folders the
// service makes are owner-only (files 0600, folders 0700) whatever umask the service or the CLI was started with.
import { chmodSync, existsSync } from 'node:fs'

/** Everything this process creates from now on is owner-only. The service and the CLI call it before anything else. */
export function createPrivately(): void {
  process.umask(0o077)
}

/**
 * Makes owner-only what an older version (or another tool) may have left open to others: the database with its
 * WAL and shared memory, and the backup folder (which makes every backup in it unreadable to others). A file this
 * user does not own is left as it is.
 */
export function tightenPrivateFiles(databasePath: string, backupDir: string): void {
  const tighten = (file: string, mode: number) => {
    try {
      if (existsSync(file)) chmodSync(file, mode)
    } catch {}
  }
  for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`]) tighten(file, 0o600)
  tighten(backupDir, 0o700)
}
