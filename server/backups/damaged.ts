// A database file SQLite cannot read (not a database, or damaged pages): what to do, in one sentence that names the
// newest backup to restore, instead of a stack.
import path from 'node:path'
import { listBackups, stemOf } from './files.ts'

/** SQLite's own codes for a file it cannot read as a database. */
export const isDamaged = (error: unknown) =>
  error instanceof Error && ['SQLITE_CORRUPT', 'SQLITE_NOTADB'].includes((error as Error & { code?: string }).code ?? '')

export function damagedDatabase(databasePath: string, backupDir: string, problem: string): string {
  const newest = listBackups(backupDir, stemOf(databasePath))[0]
  const what = `${databasePath} cannot be read as a database (${problem})`
  return newest
    ? `${what}; restore the newest backup with: bun server/cli.ts restore ${path.join(backupDir, newest.name)}`
    : `${what}, and ${backupDir} holds no backup of it; restore a copy from elsewhere with: bun server/cli.ts restore PATH`
}
