// The search index of each catalog version is built in a search worker of its own, and the worker it replaces (its
// index and its heap) has exited before the new one starts: two indexes, or an index and a build, never share the
// process's memory. Issue 47: at 100,000 variants resident memory rose to 433–499 MB for moments while the old
// worker was still ending beside the new build. Here at 20,000 variants, in a few seconds: each rebuild's peak stays
// at the first build's, and no thread of the new search worker runs beside one of the old.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { applySeasonFile } from '../../server/catalog/apply.ts'
import { closeSearch, searchIndex } from '../../server/catalog/search-index.ts'
import type { Db } from '../../server/db/client.ts'
import { namedSeason } from '../bench/catalog-data.ts'

const SEASONS = 4
const VARIANTS = 5_000

let dir: string
let db: Db
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'catalog-memory-'))
  db = await openMigrated(path.join(dir, 'site.db'))
  for (let i = 0; i < SEASONS; i++) {
    const season = `c9s${i + 1}`
    await Bun.write(path.join(dir, `${season}.json`), JSON.stringify(namedSeason(VARIANTS, season, 10 + i)))
    expect((await applySeasonFile(db, dir, `${season}.json`)).ok).toBe(true)
  }
})
afterAll(async () => {
  await closeSearch(db)
  await db.destroy()
  rmSync(dir, { recursive: true, force: true })
})

/** Resident memory of this process (MB), its workers included. */
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024
/** The ids of the threads Bun names after a worker: a running worker has one, and sometimes a helper. */
const workerThreads = () =>
  readdirSync('/proc/self/task').filter((t) => {
    try {
      return readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim() === 'Worker'
    } catch {
      return false // the thread ended meanwhile
    }
  })

/**
 * While `work` runs, sampled every 2 ms: the highest resident memory, and whether a worker thread still running at
 * its end (the new search worker's) was first seen while one running before it (the old one's) still ran.
 */
async function sampled(work: () => Promise<unknown>) {
  let peak = rss()
  const old = new Set(workerThreads())
  const bornBesideOld = new Set<string>()
  const sample = () => {
    peak = Math.max(peak, rss())
    const alive = workerThreads()
    if (alive.some((t) => old.has(t))) for (const t of alive) if (!old.has(t)) bornBesideOld.add(t)
  }
  const sampler = setInterval(sample, 2)
  await work()
  clearInterval(sampler)
  sample()
  return { peak, overlap: workerThreads().some((t) => bornBesideOld.has(t)) }
}

const buildAndSearch = async (version: number) => {
  const searcher = await searchIndex(db, version)
  const found = await searcher.search('crane', { limit: 10 })
  expect(found.rows.length).toBe(10)
}

describe('rebuilding the search index for a new catalog version', () => {
  it('ends the old search worker before the new one builds: the peak stays at one build', async () => {
    const first = await sampled(() => buildAndSearch(1))
    expect(workerThreads().length).toBeGreaterThan(0)
    for (let version = 2; version <= 4; version++) {
      const rebuild = await sampled(() => buildAndSearch(version))
      // Before: the old worker ended while the new one started, both alive for a moment (their threads and heaps).
      expect({ version, overlap: rebuild.overlap }).toEqual({ version, overlap: false })
      // The old index's 20,000 rows and its worker's heap (about 25 MB here) would come on top of the build's peak.
      expect({ version, peak: rebuild.peak < first.peak + 15 ? 'at one build' : rebuild.peak }).toEqual({ version, peak: 'at one build' })
    }
  }, 60_000)
})
