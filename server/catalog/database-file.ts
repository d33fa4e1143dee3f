// The file behind a database connection, so a worker can open its own connection to it; null for an in-memory one.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'

const files = new WeakMap<Executor, Promise<string | null>>()

export function databaseFile(db: Executor): Promise<string | null> {
  let file = files.get(db)
  if (!file) {
    file = sql<{ name: string; file: string }>`pragma database_list`
      .execute(db)
      .then(({ rows }) => rows.find((r) => r.name === 'main')?.file || null)
    files.set(db, file)
  }
  return file
}
