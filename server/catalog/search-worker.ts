// A search worker: the search index of one database at one catalog version, built from the rows read on its own
// connection when first asked; it answers each search with the page's rows read by their ids. Started for each new
// version and ended when the next one starts (search-index.ts).
import { openDatabase } from '../db/client.ts'
import type { Db } from '../db/client.ts'
import { indexOf, indexRows, rowsById, type SearchOptions } from './search-index.ts'
import { serveMessages } from './worker-client.ts'

let db: Db | null = null
let index: Promise<ReturnType<typeof indexOf>> | null = null

const build = async (file: string) => {
  db ??= openDatabase(file)
  const built = indexOf(await indexRows(db))
  // The rows as read and what building made are garbage now: collected before the first search, not later.
  Bun.gc(true)
  return built
}

serveMessages(async (m) => {
  if (m.kind === 'close') {
    const open = db
    db = null
    return open?.destroy()
  }
  const file = m.file as string
  index ??= build(file)
  const ready = await index
  if (m.kind === 'build') return ready.size
  const found = ready.search(m.q as string, m.options as SearchOptions)
  const rows = await rowsById(db!, found.rows)
  // A row of the page is gone: a load changed the catalog after this index was built, and a newer version follows.
  if (!rows) throw new Error('the catalog changed since this search index was built')
  return { rows, next: found.next }
})
