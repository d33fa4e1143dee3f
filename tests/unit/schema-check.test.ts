// The start refuses a database whose schema, after migrating, is not the one a fresh database gets, saying what
// differs; a database the migrations made passes and starts again.
import { afterAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../server/db/client.ts'
import { migrate, openMigrated } from '../../server/backups/migrate.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'schema-check-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function migratedThenChanged(name: string, change: string): Promise<string> {
  const file = path.join(dir, name)
  await (await openMigrated(file, { backupDir: path.join(dir, 'backups') })).destroy()
  const sqlite = new Database(file)
  sqlite.exec(change)
  sqlite.close()
  return file
}

describe('the schema check after migrating', () => {
  it('passes a database the migrations made, again and again', async () => {
    const file = path.join(dir, 'fine.db')
    await (await openMigrated(file)).destroy()
    await (await openMigrated(file)).destroy()
  })

  it('refuses a database without an index a fresh one has, naming it', async () => {
    const file = await migratedThenChanged('no-index.db', 'drop index "households_lead"')
    await expect(openMigrated(file)).rejects.toThrow(/schema differs .*index households_lead is missing/)
  })

  it('refuses a database with a column missing or of another kind, and one with an extra table', async () => {
    const file = await migratedThenChanged(
      'columns.db',
      'alter table "people" drop column "lead_alerts"; alter table "units" add column "colour" text; create table "stray" ("a" text)',
    )
    const error = await openMigrated(file).then(
      () => null,
      (e: Error) => e.message,
    )
    expect(error).toContain('column people.lead_alerts is missing')
    expect(error).toContain('column units.colour is there and a fresh database has none')
    expect(error).toContain('table stray is there and a fresh database has none')
  })

  it('migrates a fresh database in memory in well under a second (the start makes one to compare with)', async () => {
    const db = openDatabase(':memory:')
    const started = performance.now()
    await migrate(db)
    expect(performance.now() - started).toBeLessThan(1000)
    await db.destroy()
  })
})
