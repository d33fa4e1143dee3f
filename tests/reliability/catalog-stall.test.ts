// Loading big catalog files never holds other requests: while 20 files of 2,500 variants land in the watched folder,
// and while a season of 5,000 variants is rewritten, /healthz, a family page and an admin GET keep p99 under 50 ms
// above their p99 with nothing loading, before or after (reading, checking and writing a file, and building the
// search index, run in workers). Before, each file was checked and written on the service's thread and the search
// index was rebuilt there after each: p99 2.8 s during the load, 0.5 s during the rewrite.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generatedSeason } from '../bench/catalog-data.ts'
import { ADMIN_TOKEN, eventually, startServer, type TestServer } from '../helpers.ts'
import { familyAccount } from '../households.ts'

const FILES = 20
const VARIANTS = 2_500
const REWRITE = 5_000
const P99_MS = 50

let s: TestServer
let dir: string
let family: string
/** Each page's p99 with nothing loading: the machine's own noise (other tests share its cores), allowed on top. */
let idle: Record<string, number>
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'catalog-stall-'))
  s = await startServer({}, { catalogDir: dir })
  family = (await familyAccount(s, { unit: 'pack', email: 'stall.family@example.org' })).cookie
  idle = await idleP99()
})

/** Each page's p99 over 2 s with nothing loading. */
async function idleP99() {
  const quiet = await latenciesDuring(() => Bun.sleep(2000))
  return Object.fromEntries(Object.entries(quiet).map(([page, times]) => [page, p99(times)]))
}

/**
 * Each page's p99 is under 50 ms above its p99 with nothing loading: the larger of the one measured at the start and
 * one measured now, after the work, since the other workers' load on the shared cores changes over a minute.
 */
async function expectUnderLimit(latencies: Record<string, number[]>, atLeast: number) {
  const after = await idleP99()
  for (const [page, times] of Object.entries(latencies)) {
    expect(times.length).toBeGreaterThan(atLeast)
    const limit = P99_MS + Math.max(idle[page], after[page])
    expect({ page, p99: p99(times) < limit ? 'under' : p99(times), limit }).toEqual({ page, p99: 'under', limit })
  }
}
afterAll(async () => {
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

const seasonName = (i: number) => `c9s${i + 1}`
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(0.99 * xs.length))]

/** Asks the three pages one after another, each in its own loop, until `work` ends; each one's latencies (ms). */
async function latenciesDuring(work: () => Promise<unknown>) {
  const pages = {
    // 503 here (no site built, no backup yet in a test server), but answered as it would be in service.
    healthz: { path: '/healthz', headers: {}, status: 503 },
    family: { path: '/api/admin/family', headers: { cookie: family }, status: 200 },
    admin: { path: '/api/admin/catalog', headers: { 'x-admin-token': ADMIN_TOKEN }, status: 200 },
  }
  let done = false
  const latencies: Record<string, number[]> = {}
  const loops = Object.entries(pages).map(async ([name, page]) => {
    const times: number[] = (latencies[name] = [])
    while (!done) {
      const started = performance.now()
      const res = await fetch(`${s.url}${page.path}`, { headers: page.headers })
      await res.arrayBuffer()
      times.push(performance.now() - started)
      if (res.status !== page.status) throw new Error(`${page.path} answered ${res.status}`)
    }
  })
  await work()
  done = true
  await Promise.all(loops)
  return latencies
}

const served = async () => (await s.req('GET', '/api/catalog')).body.seasons as { season: string; variants: number }[]
/** Whether a search finds a name of the season, which it does only from an index built after the season loaded. */
const searchable = async (name: string) =>
  (await s.req('GET', `/api/catalog/search?q=${encodeURIComponent(name)}&match=full`)).body.matches.length > 0

describe('loading big catalog files', () => {
  it('keeps /healthz, a family page and an admin GET under 50 ms p99 while 20 files load', async () => {
    const files = Array.from({ length: FILES }, (_, i) => JSON.stringify(generatedSeason(VARIANTS, seasonName(i))))
    const latencies = await latenciesDuring(async () => {
      for (const [i, text] of files.entries()) await Bun.write(path.join(dir, `${seasonName(i)}.json`), text)
      await eventually(async () => (await served()).length === FILES, 60_000)
      // The last season is searchable: the index was rebuilt after the loads, off the request thread too.
      await eventually(() => searchable('Sprite 499'), 30_000)
    })
    expect((await served()).every((x) => x.variants === VARIANTS)).toBe(true)
    await expectUnderLimit(latencies, 20)
  }, 120_000)

  it('keeps them under 50 ms p99 while a season of 5,000 variants is rewritten, and the change lands at once', async () => {
    const season = seasonName(0)
    const text = JSON.stringify(generatedSeason(REWRITE, season)).replaceAll('"Sprite ', '"Rewritten ')
    const latencies = await latenciesDuring(async () => {
      await Bun.write(path.join(dir, `${season}.json`), text)
      await eventually(async () => (await served()).find((x) => x.season === season)?.variants === REWRITE, 30_000)
      await eventually(() => searchable('Rewritten 999'), 30_000)
    })
    // Readers saw the old season or the new one, never a mix: the rewrite commits in one transaction.
    const rows = (await s.req('GET', `/api/catalog/${season}`)).body.variants as { base_name: string }[]
    expect(rows.length).toBe(REWRITE)
    expect(rows.every((r) => r.base_name.startsWith('Rewritten '))).toBe(true)
    await expectUnderLimit(latencies, 5)
  }, 120_000)
})
