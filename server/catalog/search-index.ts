// The search index across seasons, once per catalog version. It is built and asked in a search worker of its own per
// database, which reads the rows on a connection of its own: building it never holds the service's thread. A new
// version starts a new worker and ends the old one, so the garbage of a build and an index let go are handed back
// whole, and the index keeps of each row only what search compares (the page's rows are read by their ids).
import type { Executor } from '../db/database.ts'
import { databaseFile } from './database-file.ts'
import { Row, ROW_COLUMNS, served } from './queries.ts'
import { type MatchMode, type Position, type SearchFilters } from './search-parts.ts'
import { buildSearch, type SearchRow } from './search.ts'
import { WorkerClient } from './worker-client.ts'

export interface SearchOptions {
  match?: MatchMode
  filters?: SearchFilters
  after?: Position | null
  limit: number
}
export type Served = typeof Row.static
export interface Found {
  rows: Served[]
  next: Position | null
}
export interface Searcher {
  search(q: string, options: SearchOptions): Promise<Found>
}

/**
 * Every season's rows as search compares them, each answered as its row id. Values many rows share (season,
 * status, mode, when it was added) are kept once; the names are needed only while the index is built, and `slim` lets them go after.
 */
export async function indexRows(db: Executor): Promise<SearchRow<number>[]> {
  const rows = await db
    .selectFrom('catalog_variants')
    .select([
      'season',
      'chapter',
      'season_no',
      'ord',
      'base_name',
      'row_name',
      'variant',
      'status',
      'game_mode',
      'confirmed',
      'added_at',
      'id as row',
    ])
    .execute()
  const shared = new Map<string, string>()
  const once = (s: string) => shared.get(s) ?? (shared.set(s, s), s)
  // Changed in place rather than copied: 100,000 rows are never held twice.
  for (const r of rows as unknown as (Omit<SearchRow<number>, 'confirmed'> & { confirmed: boolean | number })[]) {
    r.season = once(r.season)
    r.status = once(r.status)
    r.game_mode = once(r.game_mode)
    r.added_at = once(r.added_at!) // the rows of one load share it: the added_since filter reads it
    r.confirmed = r.confirmed === 1
  }
  return rows as unknown as SearchRow<number>[]
}

/** Builds the index and lets go of the names its rows held (search then reads only the filters' fields and the row). */
export function indexOf(rows: SearchRow<number>[]) {
  const index = buildSearch(rows)
  for (const r of rows) r.base_name = r.row_name = r.variant = ''
  return index
}

/** The rows with these ids, in their order; null when one is gone (a load replaced it since the index was built). */
export async function rowsById(db: Executor, ids: number[]): Promise<Served[] | null> {
  if (!ids.length) return []
  const found = await db
    .selectFrom('catalog_variants')
    .select(['id as pk', ...ROW_COLUMNS])
    .where('id', 'in', ids)
    .execute()
  const byId = new Map(found.map(({ pk, ...r }) => [pk, r]))
  const rows: Served[] = []
  for (const id of ids) {
    const r = byId.get(id)
    if (!r) return null
    rows.push(served(r))
  }
  return rows
}

/** Per database file, its search worker. */
const workers = new Map<string, WorkerClient>()

/** Per database (one per running service; tests run several in one process), the newest version asked for. */
const indexes = new WeakMap<Executor, { version: number; searcher: Promise<Searcher> }>()

/** Whether the index at `version` (or newer) is built or being built, so the first search does not build it. */
export const searchIndexHeld = (db: Executor, version: number) => (indexes.get(db)?.version ?? -1) >= version

/** The index at `version` or newer: asked to build now (the loader calls it after each change) and ready when it resolves. */
export function searchIndex(db: Executor, version: number): Promise<Searcher> {
  const held = indexes.get(db)
  if (held && held.version >= version) return held.searcher
  const searcher = databaseFile(db).then((file) => (file ? inWorker(file) : inThread(db)))
  searcher.catch(() => indexes.get(db)?.searcher === searcher && indexes.delete(db))
  indexes.set(db, { version, searcher })
  return searcher
}

/** Closes the database's search worker, its connection first (when the service stops). */
export async function closeSearch(db: Executor): Promise<void> {
  const file = await databaseFile(db)
  const worker = file && workers.get(file)
  if (!worker) return
  workers.delete(file)
  indexes.delete(db)
  await worker.close(5000)
}

/** A new search worker for the file; the old one (and its index) ends, and what it was asked goes to the new one. */
function restart(file: string): WorkerClient {
  void workers.get(file)?.close()
  const worker = new WorkerClient(new URL('./search-worker.ts', import.meta.url))
  workers.set(file, worker)
  // Tests run many services in one process: only the newest few databases keep a worker.
  for (const [old, w] of workers) if (workers.size > 4) (void w.close(), workers.delete(old))
  return worker
}

/** Asks the file's current worker; when a newer one replaced it meanwhile, asks that one. */
async function askCurrent<T>(file: string, message: Record<string, unknown>): Promise<T> {
  for (;;) {
    const worker = workers.get(file)!
    try {
      return await worker.ask<T>({ ...message, file })
    } catch (e) {
      if (workers.get(file) === worker) throw e
    }
  }
}

async function inWorker(file: string): Promise<Searcher> {
  restart(file)
  await askCurrent(file, { kind: 'build' })
  return {
    search: async (q, options) => {
      try {
        return await askCurrent<Found>(file, { kind: 'search', q, options })
      } catch {
        // The catalog changed under this index just before its version moved on: built again from what is there.
        restart(file)
        return askCurrent<Found>(file, { kind: 'search', q, options })
      }
    },
  }
}

/** An in-memory database (tests): built on this thread. */
async function inThread(db: Executor): Promise<Searcher> {
  const index = indexOf(await indexRows(db))
  return {
    async search(q, options) {
      const found = index.search(q, options)
      return { rows: (await rowsById(db, found.rows)) ?? [], next: found.next }
    },
  }
}
