// Opens the SQLite file through Kysely with the pragmas the service relies on, and migrates it (after a backup).
import { Database as SqliteDatabase } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { promises as fs } from 'node:fs'
import { CompiledQuery, type Driver, FileMigrationProvider, Kysely, Migrator } from 'kysely'
import { BunSqliteDialect } from 'kysely-bun-sqlite'
import { backupBeforeMigrating, recordBeforeMigration } from '../backups/before-migration.ts'
import type { Database } from './database.ts'

export type Db = Kysely<Database>

export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SqliteDatabase(file, { create: true, strict: true })
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  return new Kysely<Database>({ dialect: new ImmediateTransactions({ database: sqlite }) })
}

/**
 * Transactions begin IMMEDIATE: they take the write lock up front, waiting out another writer (the
 * CLI, a second process) under busy_timeout. A deferred transaction that reads first and writes later
 * gets SQLITE_BUSY at once, with no wait, when another connection wrote meanwhile.
 */
class ImmediateTransactions extends BunSqliteDialect {
  createDriver(): Driver {
    const driver = super.createDriver()
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    }
    return driver
  }
}

export interface MigrateOptions {
  /** Where the copy taken before migrating a database that holds data goes (`backups/` beside it by default). */
  backupDir?: string
}

/**
 * Runs every pending migration; throws with the failing migration's error. A database that already holds data
 * is first copied into the backup folder (and is not migrated when that copy cannot be made).
 */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(import.meta.dir, 'migrations') }),
  })
  const before = await backupBeforeMigrating(db, await migrator.getMigrations(), options.backupDir)
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    if (before) console.error(`The migration failed; the database as it was before is also in ${path.join(before.dir, before.name)}`)
    throw error
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  if (before) await recordBeforeMigration(db, before, applied)
  return applied
}

export async function openMigrated(file: string, options: MigrateOptions = {}): Promise<Db> {
  const db = openDatabase(file)
  await migrate(db, options)
  return db
}
