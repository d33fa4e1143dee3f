// The heavy part of a backup, on its own thread and its own read-only connection: VACUUM INTO the partial file,
// fsync, integrity_check. On the service's connection these held the one JavaScript thread for seconds on a big
// database (every request waited); here they read a WAL snapshot, so requests and writes go on meanwhile.
import { Database } from 'bun:sqlite'
import { checkDatabaseFile, fsyncFile } from './copy.ts'

declare const self: Worker

export interface CopyJob {
  source: string
  partial: string
}
/** What the thread answers: the check's complaint (null when the copy is good), or why it could not copy. */
export type CopyResult = { problem: string | null } | { error: string }

self.onmessage = (event: MessageEvent<CopyJob>) => {
  const { source, partial } = event.data
  let result: CopyResult
  try {
    const db = new Database(source, { readonly: true })
    try {
      db.run('PRAGMA busy_timeout = 5000')
      db.prepare('VACUUM INTO ?').run(partial)
    } finally {
      db.close()
    }
    fsyncFile(partial)
    result = { problem: checkDatabaseFile(partial) }
  } catch (error) {
    result = { error: (error instanceof Error ? error.message : String(error)).split('\n')[0] }
  }
  self.postMessage(result)
}
