// Run by `catalog-memory.test.ts` in a process of its own, with the allocator settings the service runs with: builds
// the search index of four catalog versions one after another in this process and prints, as JSON, each build's peak
// resident memory and whether the new search worker's thread ran beside the old one's.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { applySeasonFile } from '../../server/catalog/apply.ts'
import { closeSearch, searchIndex } from '../../server/catalog/search-index.ts'
import { namedSeason } from '../bench/catalog-data.ts'
import { rss } from '../bench/service.ts'

const SEASONS = 4
const VARIANTS = 5_000

/** Resident memory of this process (MB), its workers included. */
const resident = () => rss(process.pid).now
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
async function sampled(work: () => Promise<number>) {
  let peak = resident()
  const old = new Set(workerThreads())
  const bornBesideOld = new Set<string>()
  const sample = () => {
    peak = Math.max(peak, resident())
    const alive = workerThreads()
    if (alive.some((t) => old.has(t))) for (const t of alive) if (!old.has(t)) bornBesideOld.add(t)
  }
  const sampler = setInterval(sample, 2)
  const found = await work()
  clearInterval(sampler)
  sample()
  return { peak, overlap: workerThreads().some((t) => bornBesideOld.has(t)), found, workers: workerThreads().length }
}

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-memory-'))
const db = await openMigrated(path.join(dir, 'site.db'))
try {
  for (let i = 0; i < SEASONS; i++) {
    const season = `c9s${i + 1}`
    await Bun.write(path.join(dir, `${season}.json`), JSON.stringify(namedSeason(VARIANTS, season, 10 + i)))
    const applied = await applySeasonFile(db, dir, `${season}.json`)
    if (!applied.ok) throw new Error(`${season}.json was not applied`)
  }
  const builds = []
  for (let version = 1; version <= SEASONS; version++) {
    const build = await sampled(async () => {
      const searcher = await searchIndex(db, version)
      return (await searcher.search('crane', { limit: 10 })).rows.length
    })
    builds.push({ version, ...build })
  }
  console.log(JSON.stringify(builds))
} finally {
  await closeSearch(db)
  await db.destroy()
  rmSync(dir, { recursive: true, force: true })
}
