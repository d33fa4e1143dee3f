// A database migrated once and copied per test server, instead of running every migration for each one. It is keyed
// by the migrations' contents, so a changed or added migration makes a new one; made by whichever test process needs it
// first and published by an atomic rename, so processes running at once never see half a file. The service still runs
// its migrations (none pending on a copy) and its schema check when it opens the copy.
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../server/backups/migrate.ts'

const MIGRATIONS = path.join(import.meta.dir, '..', 'server', 'db', 'migrations')

function migrationsKey(): string {
  const hash = createHash('sha256')
  for (const name of readdirSync(MIGRATIONS).sort())
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(path.join(MIGRATIONS, name)))
  return hash.digest('hex').slice(0, 16)
}

let made: Promise<string> | undefined

/** The path of the migrated template database (made on first use). */
export function templateDatabase(): Promise<string> {
  made ??= (async () => {
    const folder = path.join(tmpdir(), 'scout-test-templates')
    const file = path.join(folder, `migrated-${migrationsKey()}.db`)
    if (existsSync(file)) return file
    mkdirSync(folder, { recursive: true })
    const scratch = mkdtempSync(path.join(folder, 'making-'))
    try {
      const db = await openMigrated(path.join(scratch, 'site.db'))
      // Closing checkpoints the write-ahead log into the file, so the one file is the whole database.
      await db.destroy()
      renameSync(path.join(scratch, 'site.db'), file)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
    return file
  })()
  return made
}

/** Copies the template to `file` (a new database for one test server). */
export async function copyTemplate(file: string): Promise<void> {
  const template = await templateDatabase()
  mkdirSync(path.dirname(file), { recursive: true })
  copyFileSync(template, file)
}
