// The schema of a database file as a comparable value: tables and indexes with columns, keys and indexes.
// Run as a script (`bun tests/schema.ts`) after adding a migration, to record the schema it creates and its sha256.
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../server/backups/migrate.ts'
import { recordNewSums } from './migration-sums.ts'

export const SCHEMA_FIXTURE = path.join(import.meta.dir, 'fixtures', 'schema.json')

/** The schema a fresh database gets from the migrations. */
export async function migratedSchema() {
  const dir = mkdtempSync(path.join(tmpdir(), 'schema-'))
  try {
    const file = path.join(dir, 'site.db')
    await (await openMigrated(file)).destroy()
    return schemaOf(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Every table and index with its columns, foreign keys and indexes, the SQL compared without layout. */
export function schemaOf(file: string) {
  const db = new Database(file, { readonly: true })
  const rows = db.query("select type, name, tbl_name, sql from sqlite_master where name not like 'kysely_%' order by name").all() as any[]
  const schema = rows.map((r) => ({
    ...r,
    sql: r.sql && r.sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').toLowerCase(),
    ...(r.type === 'table'
      ? {
          columns: db.query(`pragma table_info("${r.name}")`).all(),
          foreign_keys: db.query(`pragma foreign_key_list("${r.name}")`).all(),
          indexes: db.query(`pragma index_list("${r.name}")`).all(),
        }
      : {}),
  }))
  db.close()
  return schema
}

if (import.meta.main) {
  for (const file of await recordNewSums()) console.log(`Recorded the sha256 of ${file} in server/db/migrations.sum`)
  await Bun.write(SCHEMA_FIXTURE, `${JSON.stringify(await migratedSchema(), null, 2)}\n`)
  console.log(`Recorded the migrated schema in ${path.relative(process.cwd(), SCHEMA_FIXTURE)}`)
}
