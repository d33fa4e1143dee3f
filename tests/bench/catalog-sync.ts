// A bot's full sync of 100,000 variants through pages of 1,000, in each coding: the bytes on the wire, the time of a
// first pass (every page compressed as it is asked for) and a repeat (from the cache), and what a small request waits
// meanwhile. `bun tests/bench/catalog-sync.ts`; not part of the test line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Logger } from '../../server/ops/log.ts'
import { BufferedOutput } from '../../server/ops/output.ts'
import { ADMIN_TOKEN, startServer } from '../helpers.ts'
import { generatedSeason, namedSeason } from './catalog-data.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-sync-'))
await Bun.write(path.join(dir, 'c9s9.json'), JSON.stringify(generatedSeason(50_000)))
await Bun.write(path.join(dir, 'c9s8.json'), JSON.stringify(namedSeason(50_000)))
const s = await startServer({}, { catalogDir: dir, log: new Logger('text', new BufferedOutput(Bun.file('/dev/null').writer()).write) })
await fetch(`${s.url}/api/admin/settings/catalog.per_minute`, {
  method: 'PUT',
  headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
  body: JSON.stringify({ value: 10_000_000 }),
})

/** Every page of both seasons, one after another as a bot asks; with a small request timed beside each page. */
async function sync(accept: string) {
  let bytes = 0
  let requests = 0
  const waits: number[] = []
  const start = performance.now()
  for (const season of ['c9s9', 'c9s8']) {
    let next: string | null = `/api/catalog/${season}?limit=1000`
    while (next) {
      const page: Promise<Response> = fetch(`${s.url}${next}`, { headers: { 'accept-encoding': accept }, decompress: false } as RequestInit)
      const asked = performance.now()
      const small = fetch(`${s.url}/api/catalog`, { headers: { 'accept-encoding': accept } }).then(() => performance.now() - asked)
      const [res, wait]: [Response, number] = await Promise.all([page, small])
      waits.push(wait)
      bytes += (await res.arrayBuffer()).byteLength
      requests++
      const link: string | null = res.headers.get('link')
      next = link ? link.slice(1, link.indexOf('>')) : null
    }
  }
  waits.sort((a, b) => a - b)
  return { bytes, requests, ms: performance.now() - start, p99: waits[Math.floor(waits.length * 0.99)], max: waits.at(-1)! }
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`
const rows: string[] = []
for (const accept of ['identity', 'gzip', 'br']) {
  const cold = await sync(accept)
  const warm = await sync(accept)
  rows.push(
    `| ${accept} | ${mb(cold.bytes)} in ${cold.requests} requests | ${(cold.ms / 1000).toFixed(2)} s; a small request beside it p99 ${cold.p99.toFixed(1)} ms, max ${cold.max.toFixed(1)} ms | ${(warm.ms / 1000).toFixed(2)} s; p99 ${warm.p99.toFixed(1)} ms |`,
  )
}
console.log(
  [
    '| Accept-Encoding | full sync, 100,000 variants, pages of 1,000 | first pass (compressed as asked) | repeat (from the cache) |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n'),
)
await s.stop()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
