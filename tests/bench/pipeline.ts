// Per-request cost of the app's pipeline, in process (no network): keyed whoami, a cached catalog 304 and a
// constant answer, over app.handle. For profiling the shared request path; `bun tests/bench/pipeline.ts`.
import { mkdtempSync, rmSync, cpSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp } from '../../server/app.ts'
import { newKeySecret, sha256 } from '../../server/auth/tokens.ts'
import { CatalogLoader } from '../../server/catalog/loader.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { Logger } from '../../server/ops/log.ts'
import { BufferedOutput } from '../../server/ops/output.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { hashPassword } from '../../server/auth/passwords.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'pipeline-'))
const catalogDir = path.join(dir, 'catalog')
cpSync(path.join(import.meta.dir, '..', '..', 'catalog'), catalogDir, { recursive: true })
const env = readEnv({ DATABASE_PATH: path.join(dir, 'site.db'), PORT: '0', CATALOG_DIR: catalogDir })
const db = await openMigrated(env.databasePath)
const password_hash = await hashPassword('benchmark password')
const owner = await db
  .transaction()
  .execute((trx) => createAccount(trx, { email: 'owner@bench.example', name: null, password_hash, global_role: 'owner', units: [] }))
const key = newKeySecret()
await db
  .insertInto('api_keys')
  .values({
    person_id: owner,
    label: 'bench',
    scopes: JSON.stringify(['leads:read']),
    token_hash: sha256(key),
    hint: key.slice(5, 9),
    created_at: new Date().toISOString(),
  })
  .execute()
// app.handle has no socket, so no client address: let the key work from anywhere.
await db
  .insertInto('settings')
  .values({ key: 'api_keys_from', value: JSON.stringify('anywhere'), updated_at: new Date().toISOString() })
  .execute()
// The catalog's rate limit stays counted, at a value the loop never reaches (else most answers would be 429s).
await db
  .insertInto('settings')
  .values({ key: 'catalog.per_minute', value: JSON.stringify(10_000_000), updated_at: new Date().toISOString() })
  .execute()
const catalog = new CatalogLoader(db, catalogDir, () => {})
await catalog.loadAll()
// With the request log on, as the service runs (BENCH_LOG=0 leaves it out): lines made and written to /dev/null.
const log = process.env.BENCH_LOG === '0' ? null : new Logger('text', new BufferedOutput(Bun.file('/dev/null').writer()).write)
const app = await createApp({ db, env, catalog, log })

/** BENCH_ONLY=whoami or catalog runs that one alone (for a profile of it: `bun --cpu-prof`); BENCH_N requests. */
const only = process.env.BENCH_ONLY
const N = Number(process.env.BENCH_N ?? 50_000)

async function perRequest(label: string, make: () => Request, n = N) {
  if (only && !label.includes(only)) return
  const check = await app.handle(make())
  if (check.status >= 400 || check.status !== (await app.handle(make())).status)
    throw new Error(`${label}: ${check.status} ${await check.text()}`)
  for (let i = 0; i < 2000; i++) await (await app.handle(make())).arrayBuffer()
  const start = performance.now()
  for (let i = 0; i < n; i++) await (await app.handle(make())).arrayBuffer()
  const us = ((performance.now() - start) * 1000) / n
  console.log(`${label}: ${us.toFixed(2)} µs a request`)
}

const first = await app.handle(new Request('http://localhost/api/catalog/c6s3', { headers: { 'accept-encoding': 'gzip' } }))
const etag = first.headers.get('etag')!
await perRequest(
  'keyed GET /api/admin/whoami',
  () => new Request('http://localhost/api/admin/whoami', { headers: { authorization: `Bearer ${key}` } }),
)
await perRequest(
  'GET /api/catalog/c6s3 → 304',
  () => new Request('http://localhost/api/catalog/c6s3', { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } }),
)
if (only) process.exit(0)
const bare = (r: Request) => new Response(null, { status: 304, headers: { etag: r.headers.get('if-none-match') ?? '' } })
const start = performance.now()
for (let i = 0; i < 50_000; i++) bare(new Request('http://localhost/x', { headers: { 'if-none-match': etag } }))
console.log(`a bare handler: ${(((performance.now() - start) * 1000) / 50_000).toFixed(2)} µs a request`)
await db.destroy()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
