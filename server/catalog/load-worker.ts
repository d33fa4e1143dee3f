// The load worker: reads, checks and writes season files on a database connection of its own, so a big file never
// holds the service's thread (readers keep seeing the season's last version until the one transaction commits).
import { openDatabase } from '../db/client.ts'
import { applySeasonFile } from './apply.ts'
import { serveMessages } from './worker-client.ts'

/** Files are applied one after another: twenty dropped in together are never all parsed and held at once. */
let queue: Promise<unknown> = Promise.resolve()

serveMessages((m) => {
  const applied = queue.then(async () => {
    // A connection per file, closed after it: none is left open when the worker ends (SQLite then removes the WAL
    // when the service closes its own).
    const db = openDatabase(m.database as string)
    const result = await applySeasonFile(db, m.dir as string, m.name as string).finally(() => db.destroy())
    // The file's text, tree and rows are garbage now: collected here rather than when the heap next grows.
    Bun.gc(true)
    return result
  })
  queue = applied.catch(() => {})
  return applied
})
