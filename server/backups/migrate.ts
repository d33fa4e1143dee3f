// Back up, then migrate: how the service and the CLI open a database. The copy comes first, so db/ (below the
// backups) only runs the migrations and checks the schema.
import { assertFreshSchema, type Db, migrationsOf, openDatabase, runMigrations } from '../db/client.ts'
import { backupBeforeMigrating, recordBeforeMigration } from './before-migration.ts'

export interface MigrateOptions {
  /** Where the copy taken before migrating a database that holds data goes (`backups/` beside it by default). */
  backupDir?: string
}

/**
 * Runs every pending migration; throws with the failing migration's error. A database that already holds data
 * is first copied into the backup folder (and is not migrated when that copy cannot be made). Then throws, naming
 * what differs, when the schema is not the one a fresh database gets: the service must not start on it.
 */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const before = await backupBeforeMigrating(db, await migrationsOf(db), options.backupDir)
  const applied = await runMigrations(db, before)
  if (before) await recordBeforeMigration(db, before, applied)
  await assertFreshSchema(db)
  return applied
}

export async function openMigrated(file: string, options: MigrateOptions = {}): Promise<Db> {
  const db = openDatabase(file)
  await migrate(db, options)
  return db
}
