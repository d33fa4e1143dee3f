// A big database and steady requests during a backup, for the backup-stall test and benchmark.
import { sql } from 'kysely'
import type { Db } from '../server/db/client.ts'
import type { TestServer } from './helpers.ts'

/** Adds rows of random bytes (1 MB each, in one table of their own) until the file holds about `mb` megabytes; its size. */
export async function fillDatabase(db: Db, mb: number): Promise<number> {
  await sql`create table if not exists bench_filler (id integer primary key, b blob not null)`.execute(db)
  for (let i = 0; i < mb; i += 16)
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${Math.min(16, mb - i)})
      insert into bench_filler (b) select randomblob(1000000) from n`.execute(db)
  await sql`pragma wal_checkpoint(truncate)`.execute(db)
  const { rows } = await sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count, pragma_page_size`.execute(db)
  return rows[0].bytes
}

/**
 * Runs `backup` while asking GET /healthz one request after another and committing one small write after another;
 * the backup's time, the latency (ms) of each request asked while it ran, and how many requests were answered and
 * writes committed before it ended.
 */
export async function requestsDuring(s: TestServer, backup: () => Promise<unknown>) {
  await sql`create table if not exists bench_writes (id integer primary key, at text not null)`.execute(s.db)
  let done = false
  const latencies: number[] = []
  let answered = 0
  let writes = 0
  const asking = (async () => {
    while (!done) {
      const started = performance.now()
      const res = await fetch(`${s.url}/healthz`)
      await res.arrayBuffer()
      latencies.push(performance.now() - started)
      if (!done) answered++
    }
  })()
  const writing = (async () => {
    while (!done) {
      await sql`insert into bench_writes (at) values (${new Date().toISOString()})`.execute(s.db)
      if (!done) writes++
      await new Promise((resolve) => setImmediate(resolve))
    }
  })()
  const started = performance.now()
  await backup()
  const ms = performance.now() - started
  done = true
  await Promise.all([asking, writing])
  return { ms, latencies, answered, writes }
}
