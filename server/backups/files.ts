// Backup file names and rotation: only files named like ours (`site-2026-11-24T090012Z.db`) are listed or deleted.
import { readdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

export type BackupReason = 'daily' | 'catch-up' | 'before-migration'

/** Before-migration copies are outside the daily rotation: this many of the newest stay, whatever their age. */
export const BEFORE_MIGRATION_KEPT = 3

/** The database file's name without its extension (`site` for `data/site.db`): backups are named after it. */
export const stemOf = (databasePath: string) => path.basename(databasePath).replace(/\.[^.]+$/, '') || path.basename(databasePath)

/** `2026-11-24T090012Z`: UTC, so names sort by time and a clock change never repeats one. */
export const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/:/g, '')
    .replace(/\.\d+Z$/, 'Z')

export const backupName = (stem: string, ms: number, reason: BackupReason) =>
  `${stem}-${stamp(ms)}${reason === 'before-migration' ? '-before-migration' : ''}.db`

/** The name a copy is written under until it has passed its check: hidden, and matching no backup pattern. */
export const partialName = (name: string) => `.${name}.partial`

export interface BackupFile {
  name: string
  /** When it was taken (from its name). */
  at: number
  beforeMigration: boolean
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Our backups of the database `stem` in `dir`, newest first; other files are never listed. */
export function listBackups(dir: string, stem: string): BackupFile[] {
  const pattern = new RegExp(`^${escape(stem)}-(\\d{4}-\\d{2}-\\d{2})T(\\d{2})(\\d{2})(\\d{2})Z(-before-migration)?\\.db$`)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const files: BackupFile[] = []
  for (const name of names) {
    const m = pattern.exec(name)
    const at = m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : NaN
    if (m && !Number.isNaN(at)) files.push({ name, at, beforeMigration: Boolean(m[5]) })
  }
  return files.sort((a, b) => b.at - a.at || b.name.localeCompare(a.name))
}

/** When the newest daily (or catch-up) backup was taken, or null when there is none. */
export const newestDaily = (dir: string, stem: string): number | null => listBackups(dir, stem).find((f) => !f.beforeMigration)?.at ?? null

/**
 * Keeps the newest `keep` daily backups and the newest BEFORE_MIGRATION_KEPT before-migration ones, deleting
 * older ones of ours, and removes our partial copies left by a crash (older than an hour, so never one being
 * written). Returns the names it removed.
 */
export function prune(dir: string, stem: string, keep: number, now = Date.now()): string[] {
  const files = listBackups(dir, stem)
  const old = [
    ...files.filter((f) => !f.beforeMigration).slice(keep),
    ...files.filter((f) => f.beforeMigration).slice(BEFORE_MIGRATION_KEPT),
  ].map((f) => f.name)
  const partial = new RegExp(`^\\.${escape(stem)}-.*\\.(db|files)\\.partial$`)
  for (const name of readdirSync(dir)) if (partial.test(name) && now - statSync(path.join(dir, name)).mtimeMs > 3_600_000) old.push(name)
  for (const name of old) {
    rmSync(path.join(dir, name), { force: true, recursive: true })
    // A backup's files folder (backups/files-copy.ts) goes with its database copy.
    if (name.endsWith('.db')) rmSync(path.join(dir, `${name.slice(0, -3)}.files`), { force: true, recursive: true })
  }
  return old
}
