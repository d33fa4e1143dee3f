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
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'catalog-stall-'))
  s = await startServer({}, { catalogDir: dir })
  family = (await familyAccount(s, { unit: 'pack', email: 'stall.family@example.org' })).cookie
})

type Over = { page: string; p99: number; limit: number }[]

/** Each page's p99 over 2 s with nothing loading: the machine's own noise (other tests share its cores). */
async function idleP99() {
  const quiet = await latenciesDuring(() => Bun.sleep(2000))
  return Object.fromEntries(Object.entries(quiet).map(([page, times]) => [page, p99(times)]))
}

/**
 * Each page's latencies while `work` runs, and the pages whose p99 is not under 50 ms above their p99 with nothing
 * loading: the larger of the one measured just before the work and one just after, since the other workers' load on
 * the shared cores changes from moment to moment.
 */
async function measured(work: () => Promise<unknown>) {
  const before = await idleP99()
  const latencies = await latenciesDuring(work)
  const after = await idleP99()
  const over: Over = Object.entries(latencies).flatMap(([page, times]) => {
    const limit = P99_MS + Math.max(before[page]!, after[page]!)
    return p99(times) < limit ? [] : [{ page, p99: p99(times), limit }]
  })
  return { latencies, over }
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

/**
 * Up to three attempts, judged by the best: a p99 over a few seconds on shared cores is a noisy measurement, and the
 * other workers' load only ever adds to a latency, while a stall of the service's own shows in every attempt. Passes
 * once an attempt keeps every page under its limit; fails listing each attempt's pages over it.
 */
async function expectBestOfThree(attempt: (n: number) => Promise<Over>) {
  const attempts: Over[] = []
  for (let n = 0; n < 3 && attempts.at(-1)?.length !== 0; n++) attempts.push(await attempt(n))
  expect(attempts.at(-1)!.length === 0 ? [] : attempts).toEqual([])
}

describe('loading big catalog files', () => {
  it('keeps /healthz, a family page and an admin GET under 50 ms p99 while 20 files load', async () => {
    const files = Array.from({ length: FILES }, (_, i) => JSON.stringify(generatedSeason(VARIANTS, seasonName(i))))
    await expectBestOfThree(async (n) => {
      if (n > 0) {
        // The seasons taken away again, so that this attempt loads all 20 anew.
        for (let i = 0; i < FILES; i++) rmSync(path.join(dir, `${seasonName(i)}.json`))
        await eventually(async () => (await served()).length === 0 && !(await searchable('Sprite 499')), 60_000)
      }
      const { latencies, over } = await measured(async () => {
        for (const [i, text] of files.entries()) await Bun.write(path.join(dir, `${seasonName(i)}.json`), text)
        await eventually(async () => (await served()).length === FILES, 60_000)
        // The last season is searchable: the index was rebuilt after the loads, off the request thread too.
        await eventually(() => searchable('Sprite 499'), 30_000)
      })
      expect((await served()).every((x) => x.variants === VARIANTS)).toBe(true)
      for (const times of Object.values(latencies)) expect(times.length).toBeGreaterThan(20)
      return over
    })
  }, 300_000)

  it('keeps them under 50 ms p99 while a season of 5,000 variants is rewritten, and the change lands at once', async () => {
    const season = seasonName(0)
    await expectBestOfThree(async (n) => {
      const word = ['Rewritten', 'Renamed', 'Redone'][n]!
      const text = JSON.stringify(generatedSeason(REWRITE, season)).replaceAll('"Sprite ', `"${word} `)
      const { latencies, over } = await measured(async () => {
        await Bun.write(path.join(dir, `${season}.json`), text)
        await eventually(async () => (await served()).find((x) => x.season === season)?.variants === REWRITE, 30_000)
        await eventually(() => searchable(`${word} 999`), 30_000)
      })
      // Readers saw the old season or the new one, never a mix: the rewrite commits in one transaction.
      const rows = (await s.req('GET', `/api/catalog/${season}`)).body.variants as { base_name: string }[]
      expect(rows.length).toBe(REWRITE)
      expect(rows.every((r) => r.base_name.startsWith(`${word} `))).toBe(true)
      for (const times of Object.values(latencies)) expect(times.length).toBeGreaterThan(5)
      return over
    })
  }, 300_000)
})
