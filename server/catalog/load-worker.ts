// The load worker: reads, checks and writes season files on a database connection of its own, so a big file never
// holds the service's thread (readers keep seeing the season's last version until the one transaction commits).
import { openDatabase } from '../db/client.ts'
import { applySeasonFile } from './apply.ts'
import { connections } from './database-file.ts'
import { serveMessages } from './worker-client.ts'

const connection = connections(openDatabase)

/** Files are applied one after another: twenty dropped in together are never all parsed and held at once. */
let queue: Promise<unknown> = Promise.resolve()

serveMessages((m) => {
  const applied = queue.then(async () => {
    const result = await applySeasonFile(connection(m.database as string), m.dir as string, m.name as string)
    // The file's text, tree and rows are garbage now: collected here rather than when the heap next grows.
    Bun.gc(true)
    return result
  })
  queue = applied.catch(() => {})
  return applied
})
