// The search index across seasons, once per catalog version. It is built and asked in the search worker, which reads
// the rows on a connection of its own: building it never holds the service's thread, and the rows and index live
// in the worker's heap, one index at a time (an in-memory database, in tests, builds it here instead).
import type { Executor } from '../db/database.ts'
import { databaseFile } from './database-file.ts'
import { Row, ROW_COLUMNS, served } from './queries.ts'
import { buildSearch, type MatchMode, type Position, type SearchFilters } from './search.ts'
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

/** Every season's rows as search sees them, read in one query. */
export async function indexRows(db: Executor) {
  const rows = await db
    .selectFrom('catalog_variants')
    .select([...ROW_COLUMNS, 'chapter', 'season_no', 'ord'])
    .execute()
  return rows.map(({ chapter, season_no, ord, ...r }) => {
    const row: Served = served(r)
    return { ...row, chapter, season_no, ord, row }
  })
}

const searchWorker = new WorkerClient(new URL('./search-worker.ts', import.meta.url))

/** Per database (one per running service; tests run several in one process), the newest version asked for. */
const indexes = new WeakMap<Executor, { version: number; searcher: Promise<Searcher> }>()

/** Whether the index at `version` (or newer) is built or being built, so the first search does not build it. */
export const searchIndexHeld = (db: Executor, version: number) => (indexes.get(db)?.version ?? -1) >= version

/** The index at `version` or newer: asked to build now (the loader calls it after each change) and ready when it resolves. */
export function searchIndex(db: Executor, version: number): Promise<Searcher> {
  const held = indexes.get(db)
  if (held && held.version >= version) return held.searcher
  const searcher = databaseFile(db).then(async (file): Promise<Searcher> => {
    if (!file) {
      const index = buildSearch(await indexRows(db))
      return { search: async (q, options) => index.search(q, options) as Found }
    }
    await searchWorker.ask({ kind: 'build', file, version })
    // Each ask names its version: a worker started again (after a crash) builds before it answers.
    return { search: (q, options) => searchWorker.ask<Found>({ kind: 'search', file, version, q, options }) }
  })
  searcher.catch(() => indexes.get(db)?.searcher === searcher && indexes.delete(db))
  indexes.set(db, { version, searcher })
  return searcher
}
