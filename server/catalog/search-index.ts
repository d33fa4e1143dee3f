// The search index across seasons, once per catalog version. It is built and asked in a search worker of its own per
// database, which reads the rows on a connection of its own: building it never holds the service's thread. A new
// version ends the old worker and, once its thread has exited, starts a new one: the garbage of a build and an index
// let go are handed back whole, two never live at once, and the index keeps of each row only what search compares
// (the page's rows are read by their ids).
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
 * Every season's rows as search compares them, each answered as its row id. Read a thousand at a time from one statement
 * (one snapshot of the catalog), each copied with the values many rows share (names, season, status, mode, when it
 * was added) kept once: 100,000 rows as SQLite answers them, with a string of each value per row, are never held at once.
 */
export async function indexRows(db: Executor): Promise<SearchRow<number>[]> {
  const shared = new Map<string, string>()
  const once = (s: string) => shared.get(s) ?? (shared.set(s, s), s)
  const rows: SearchRow<number>[] = []
  const read = db
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
      'id',
    ])
    .stream(1000)
  for await (const r of read)
    rows.push({
      season: once(r.season),
      chapter: r.chapter,
      season_no: r.season_no,
      ord: r.ord,
      base_name: once(r.base_name),
      row_name: once(r.row_name),
      variant: once(r.variant),
      status: once(r.status),
      game_mode: once(r.game_mode),
      confirmed: r.confirmed === 1,
      added_at: once(r.added_at), // the rows of one load share it: the added_since filter reads it
      row: r.id,
    })
  return rows
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

/**
 * The index at `version` or newer: asked to build now (the loader calls it after each change) and ready when it
 * resolves. A new build's worker starts once `after` resolves too (the loader's load worker has ended).
 */
export function searchIndex(db: Executor, version: number, after?: Promise<void>): Promise<Searcher> {
  const held = indexes.get(db)
  if (held && held.version >= version) return held.searcher
  const searcher = databaseFile(db).then((file) => (file ? inWorker(file, after) : inThread(db)))
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

/**
 * A new search worker for the file; the old one (and its index) ends, and what it was asked goes to the new one. The
 * new one starts only once the old one's thread has exited: two indexes, or an index and a build, never share the
 * process's memory.
 */
function restart(file: string, before?: Promise<void>): WorkerClient {
  const old = workers.get(file)?.close()
  const after = Promise.all([old, before]).then(() => {})
  const worker = new WorkerClient(new URL('./search-worker.ts', import.meta.url), { after })
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

async function inWorker(file: string, after?: Promise<void>): Promise<Searcher> {
  restart(file, after)
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
