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

/** Connections a worker opened, by file, the least recently used closed past `keep` (tests run many services). */
export function connections<T extends { destroy(): Promise<void> }>(open: (file: string) => T, keep = 4) {
  const held = new Map<string, T>()
  return (file: string): T => {
    let db = held.get(file)
    if (db) held.delete(file)
    else db = open(file)
    held.set(file, db)
    for (const [old, conn] of held) {
      if (held.size <= keep) break
      held.delete(old)
      void conn.destroy()
    }
    return db
  }
}
