// A backup of a big database does not hold up the service: while the copy of a 120 MB database is made, requests
// are answered and writes commit (the copy and its check read a snapshot on a thread of their own).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { runBackup } from '../../server/backups/run.ts'
import { fillDatabase, requestsDuring } from '../backup-load.ts'
import { startServer, type TestServer } from '../helpers.ts'

let s: TestServer
beforeAll(async () => {
  s = await startServer()
  await fillDatabase(s.db, 120)
}, 120_000)
afterAll(() => s.stop())

describe('a backup of a big database', () => {
  it('lets requests be answered and writes commit while it runs, and the copy is whole', async () => {
    const place = { databasePath: path.join(s.dir, 'site.db'), dir: path.join(s.dir, 'backups') }
    let outcome: Awaited<ReturnType<typeof runBackup>> | undefined
    const during = await requestsDuring(s, async () => (outcome = await runBackup(s.db, place, 'daily')))
    expect(outcome!.ok).toBe(true)
    // Before, the copy ran on the service's one thread: nothing was answered until it ended.
    expect(during.answered).toBeGreaterThanOrEqual(3)
    expect(during.writes).toBeGreaterThanOrEqual(3)
    const copy = new Database(path.join(place.dir, (outcome as { name: string }).name), { readonly: true })
    try {
      expect(copy.query('select count(*) as n from bench_filler').get()).toEqual({ n: 120 })
    } finally {
      copy.close()
    }
  }, 120_000)
})
