// How much a backup of a big database holds up requests: fills a service database to `MB` megabytes (default 456)
// with rows of random bytes, then runs the nightly backup while GET /healthz is asked one request after another,
// and prints the backup's time and the requests' latencies during it. `bun tests/bench/backup-stall.ts [MB]`
import path from 'node:path'
import { runBackup } from '../../server/backups/run.ts'
import { startServer } from '../helpers.ts'
import { fillDatabase, requestsDuring } from '../backup-load.ts'

const mb = Number(process.argv[2] ?? 456)
const s = await startServer()
try {
  const filled = await fillDatabase(s.db, mb)
  console.log(`database filled to ${(filled / 1e6).toFixed(0)} MB`)
  for (let run = 1; run <= 3; run++) {
    const place = { databasePath: path.join(s.dir, 'site.db'), dir: path.join(s.dir, `backups-${run}`) }
    const { ms, latencies, answered, writes } = await requestsDuring(s, () => runBackup(s.db, place, 'daily'))
    const sorted = [...latencies].sort((a, b) => a - b)
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1)
    console.log(
      `run ${run}: backup ${ms.toFixed(0)} ms; ${answered} requests answered during it, p50 ${at(0.5)} ms, ` +
        `p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; ${writes} writes committed meanwhile`,
    )
  }
} finally {
  await s.stop()
}
