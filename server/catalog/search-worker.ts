// The search worker: per database file, the newest search index, built from the rows read on its own connection.
// Asks for newer versions that arrive while one is built are served by one build at the newest, and the old index
// is let go before the new one is built, so at most one index (and its rows) is held per database.
import { openDatabase } from '../db/client.ts'
import { connections } from './database-file.ts'
import { buildSearch, type SearchIndex } from './search.ts'
import { indexRows, type SearchOptions, type Served } from './search-index.ts'
import { serveMessages } from './worker-client.ts'

interface Held {
  version: number
  index: SearchIndex<Served> | null
  wanted: number
  building: Promise<void> | null
}

const connection = connections(openDatabase)
const held = new Map<string, Held>()

async function rebuild(file: string, h: Held) {
  try {
    // Asks already queued raise `wanted` first, so one build serves them all.
    await new Promise((resolve) => setTimeout(resolve, 0))
    const version = h.wanted
    h.index = null
    Bun.gc(true)
    const rows = await indexRows(connection(file))
    h.index = buildSearch<Served>(rows)
    h.version = version
  } finally {
    h.building = null
  }
  // What building left behind is garbage: collected now, not when the heap next grows.
  Bun.gc(true)
}

async function indexAt(file: string, version: number): Promise<SearchIndex<Served>> {
  let h = held.get(file)
  if (!h) {
    held.set(file, (h = { version: -1, index: null, wanted: -1, building: null }))
    // Tests run many services in one process: only the newest few databases keep an index.
    for (const old of held.keys()) if (held.size > 4 && !held.get(old)!.building) held.delete(old)
  }
  while (!h.index || h.version < version) {
    h.wanted = Math.max(h.wanted, version)
    h.building ??= rebuild(file, h)
    await h.building
  }
  return h.index
}

serveMessages(async (m) => {
  const index = await indexAt(m.file as string, m.version as number)
  if (m.kind === 'build') return index.size
  return index.search(m.q as string, m.options as SearchOptions)
})
