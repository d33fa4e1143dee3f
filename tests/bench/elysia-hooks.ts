// What Elysia's lifecycle costs a 304 by itself, in process (app.handle): a bare handler, one route, then the kinds of
// hook the service's edge uses (an async onRequest, a global mapResponse, an onAfterResponse for the log line).
// µs a request, the median of 3 passes of 100,000. `bun tests/bench/elysia-hooks.ts`.
import { Elysia } from 'elysia'
const N = 100_000
async function per(label: string, handle: (r: Request) => Promise<Response> | Response) {
  const make = () => new Request('http://localhost/api/catalog/c6s3', { headers: { 'if-none-match': '"a"' } })
  for (let i = 0; i < 10000; i++) await handle(make())
  const res: number[] = []
  for (let p = 0; p < 3; p++) {
    const t = performance.now()
    for (let i = 0; i < N; i++) await handle(make())
    res.push(((performance.now() - t) * 1000) / N)
  }
  res.sort((a, b) => a - b)
  console.log(`| ${label} | ${res[1].toFixed(2)} |`)
}
const answer = () => new Response(null, { status: 304, headers: { etag: '"a"' } })
await per('a bare handler (await)', async (r) => answer())
const plain = new Elysia().get('/api/catalog/:season', () => answer())
await per('Elysia, one route', (r) => plain.handle(r))
const parseNone = new Elysia().route('GET', '/api/catalog/:season', () => answer(), { parse: 'none' })
await per('Elysia, one route, parse none', (r) => parseNone.handle(r))
const hooked = new Elysia()
  .decorate({ id: '-' })
  .onRequest(async (c) => void (c.id = crypto.randomUUID()))
  .mapResponse({ as: 'global' }, ({ responseValue }) => void (responseValue as Response).headers.set('x-request-id', 'x'))
  .route('GET', '/api/catalog/:season', () => answer(), { parse: 'none' })
await per('Elysia + async onRequest + mapResponse', (r) => hooked.handle(r))
const after = new Elysia()
  .decorate({ id: '-' })
  .onRequest(async (c) => void (c.id = crypto.randomUUID()))
  .mapResponse({ as: 'global' }, ({ responseValue }) => void (responseValue as Response).headers.set('x-request-id', 'x'))
  .onAfterResponse({ as: 'global' }, () => {})
  .route('GET', '/api/catalog/:season', () => answer(), { parse: 'none' })
await per('… + onAfterResponse (empty)', (r) => after.handle(r))
const syncReq = new Elysia()
  .decorate({ id: '-' })
  .onRequest((c) => void (c.id = crypto.randomUUID()))
  .mapResponse({ as: 'global' }, ({ responseValue }) => void (responseValue as Response).headers.set('x-request-id', 'x'))
  .onAfterResponse({ as: 'global' }, () => {})
  .route('GET', '/api/catalog/:season', () => answer(), { parse: 'none' })
await per('… the same with a sync onRequest', (r) => syncReq.handle(r))
const syncNoAfter = new Elysia()
  .decorate({ id: '-' })
  .onRequest((c) => void (c.id = crypto.randomUUID()))
  .mapResponse({ as: 'global' }, ({ responseValue }) => void (responseValue as Response).headers.set('x-request-id', 'x'))
  .route('GET', '/api/catalog/:season', () => answer(), { parse: 'none' })
await per('a sync onRequest + mapResponse, no onAfterResponse', (r) => syncNoAfter.handle(r))
process.exit(0)
