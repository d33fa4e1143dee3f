// What each step of one answer costs alone, in process: the pieces the edge, the catalog's edge, the router and the
// log add to a keyed whoami and a catalog 304 (bench/pipeline.ts measures them together). Each step runs 200,000
// times after a warm-up; the figure is µs a call, the median of 5 passes. `bun tests/bench/edge-steps.ts`.
import { clientKey } from '../../server/auth/address.ts'
import { addToAnswer } from '../../server/http/edge.ts'
import { requestPath } from '../../server/http/request-path.ts'
import { Logger } from '../../server/ops/log.ts'
import { BufferedOutput } from '../../server/ops/output.ts'
import { WindowLimiter } from '../../server/rate-limit.ts'

const N = 200_000
const url = 'http://localhost:8080/api/catalog/c6s3'
const request = new Request(url, { headers: { host: 'localhost:8080', 'accept-encoding': 'gzip', 'if-none-match': '"abc-gz"' } })
let sink: unknown

function measure(label: string, step: () => unknown) {
  for (let i = 0; i < 20_000; i++) sink = step()
  const passes: number[] = []
  for (let p = 0; p < 5; p++) {
    const start = performance.now()
    for (let i = 0; i < N; i++) sink = step()
    passes.push(((performance.now() - start) * 1000) / N)
  }
  passes.sort((a, b) => a - b)
  console.log(`| ${label} | ${passes[2].toFixed(2)} |`)
}

const services = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`service${i}`, { i }]))
const hits = new WindowLimiter(60_000)
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, Link' }
const log = new Logger('text', new BufferedOutput(Bun.file('/dev/null').writer()).write)
const fields = {
  'x-request-id': 'c0a8e1f2-0000-4000-8000-000000000000',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
}
const catalogFields = { ...CORS, 'ratelimit-policy': '"default";q=600;w=60', ratelimit: '"default";r=599;t=42' }

console.log('| step | µs a call |\n|---|---|')
measure(
  'a bare 304: `new Response(null, {status: 304, headers: {etag}})`',
  () => new Response(null, { status: 304, headers: { etag: '"a"' } }),
)
measure(
  'a Request as Bun.serve hands one over (the bench makes one per answer)',
  () => new Request(url, { headers: { 'if-none-match': '"a"' } }),
)
measure('the path (`requestPath`), once', () => requestPath(request))
measure('the request id: `crypto.randomUUID()`', () => crypto.randomUUID())
measure('the catalog rate limit: `clientKey` and `WindowLimiter.hit`', () => hits.hit(clientKey('127.0.0.1') ?? 'unknown', 10_000_000))
measure('the catalog fields object (CORS and RateLimit strings)', () => ({
  ...CORS,
  'ratelimit-policy': `"default";q=${600};w=${60}`,
  ratelimit: `"default";r=${599};t=${42}`,
}))
measure('adding the 3 edge fields to a Response (`addToAnswer`)', () => {
  const r = new Response(null, { status: 304 })
  addToAnswer(r, { headers: {} }, fields)
  return r
})
measure('adding the 5 catalog fields to a Response (`addToAnswer`)', () => {
  const r = new Response(null, { status: 304 })
  addToAnswer(r, { headers: {} }, catalogFields)
  return r
})
measure('  of which the Response alone', () => new Response(null, { status: 304 }))
measure('the log line, queued (`Logger.request`; written in batches)', () =>
  log.request('GET', url, 304, performance.now(), 'none', 'c0a8e1f2-0000-4000-8000-000000000000'),
)
measure("a handler's context: 24 services spread into a new object with 2 getters", () => ({
  ...services,
  request,
  get address() {
    return null
  },
  get client() {
    return null
  },
}))
log.drain()
process.exit(sink === undefined ? 1 : 0)
