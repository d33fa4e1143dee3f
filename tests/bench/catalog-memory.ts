// Issue 47's figures in one run (`npm run bench -- catalog-memory`): the real service (`bun server/main.ts`) with
// 100,000 variants in 22 season files dropped into its watched catalog folder. Resident memory (VmRSS) and its peak
// (VmHWM) of the service process, its workers included, through loading, searching, autocompleting, a bot's full sync
// in each coding, removing five seasons one a second with a search after each, and rewriting a season of 5,000
// variants; the p99 of other requests (/healthz, a family page, an admin GET) asked one after another during the load
// and the rewrite; and the bytes of the full sync through pages of 1,000, identity and compressed. Each row carries
// the issue's own figure from before it ("today" when it was written).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { schemaFileText } from '../../server/catalog/schema.ts'
import { autocompleteQueries, namedSeason, searchQueries } from './catalog-data.ts'
import { fillDataset } from './dataset.ts'
import { ADMIN_TOKEN, rss, signIn, startService } from './service.ts'

const SEASONS = 22
const VARIANTS = 100_000
const REWRITE = 5_000

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]
const mb = (x: number) => `${x.toFixed(0)} MB`

export async function catalogMemoryBench() {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-catalog-memory-'))
  const catalog = path.join(dir, 'catalog')
  await Bun.write(path.join(catalog, 'season.schema.json'), schemaFileText())
  const db = await openMigrated(path.join(dir, 'site.db'))
  await fillDataset(db, 1)
  await db.destroy()
  const { url, proc } = await startService(dir, { CATALOG_DIR: catalog })
  const family = await signIn(url, 'family0@families.example')
  const admin = { 'x-admin-token': ADMIN_TOKEN }
  // The catalog's rate limit stays counted, at a value the bench never reaches.
  const limited = await fetch(`${url}/api/admin/settings/catalog.per_minute`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ value: 10_000_000 }),
  })
  if (limited.status !== 200) throw new Error(`setting catalog.per_minute answered ${limited.status}`)
  try {
    return await measure(url, proc.pid, catalog, family, admin)
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

async function measure(url: string, pid: number, catalog: string, family: string, admin: Record<string, string>) {
  const seasons = Array.from({ length: SEASONS }, (_, i) => `c10s${i + 1}`)
  const per = Math.floor(VARIANTS / SEASONS / 5) * 5
  const files = seasons.map((season, i) => namedSeason(i === SEASONS - 1 ? VARIANTS - per * (SEASONS - 1) : per, season, 100 + i))
  const texts = files.map((f) => JSON.stringify(f))
  const served = async () =>
    ((await (await fetch(`${url}/api/catalog`)).json()) as { seasons: { season: string; variants: number }[] }).seasons
  const total = async () => (await served()).reduce((n, s) => n + s.variants, 0)
  const until = async (check: () => Promise<boolean>) => {
    while (!(await check())) await Bun.sleep(50)
  }
  const ask = async (pathname: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${pathname}`, { headers })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`${pathname} answered ${res.status}`)
  }
  /** A name of the season that only a search index built after its last change finds. */
  const searchable = async (name: string) =>
    ((await (await fetch(`${url}/api/catalog/search?q=${encodeURIComponent(name)}&match=full`)).json()) as { matches: unknown[] }).matches
      .length > 0

  /** Each page asked one after another until `work` ends; the p99 (ms) of each. */
  const during = async (work: () => Promise<unknown>) => {
    const pages: [string, string, Record<string, string>][] = [
      ['/healthz', '/healthz', {}],
      ['family page', '/api/admin/family', { cookie: family }],
      ['admin GET', '/api/admin/catalog', admin],
    ]
    let done = false
    const times = pages.map(() => [] as number[])
    const loops = pages.map(async ([, pathname, headers], k) => {
      while (!done) {
        const at = performance.now()
        await (await fetch(`${url}${pathname}`, { headers })).arrayBuffer()
        times[k].push(performance.now() - at)
      }
    })
    const started = performance.now()
    await work()
    const ms = performance.now() - started
    done = true
    await Promise.all(loops)
    return { ms, p99: pages.map(([name], k) => `${name} ${percentile(times[k], 99).toFixed(1)} ms`).join(', ') }
  }

  // Resident memory sampled every 100 ms throughout, for the highest it reached between the steps.
  let highest = 0
  let highestOfStep = 0
  const sampler = setInterval(() => {
    const now = rss(pid).now
    highest = Math.max(highest, now)
    highestOfStep = Math.max(highestOfStep, now)
  }, 100)
  const steps: { step: string; rss: number; peak: number; highest: number }[] = []
  const note = (step: string) => {
    const { now, peak } = rss(pid)
    steps.push({ step, rss: now, peak, highest: Math.max(highestOfStep, now) })
    highestOfStep = 0
  }
  note('idle, no catalog')

  const load = await during(async () => {
    for (const [i, text] of texts.entries()) await Bun.write(path.join(catalog, `${seasons[i]}.json`), text)
    await until(async () => (await total()) === VARIANTS)
    await until(() => searchable(files.at(-1)!.sprites.at(-1)!.base_name))
  })
  note(`loaded ${SEASONS} seasons, ${VARIANTS.toLocaleString('en-US')} variants, search index built`)

  const named = files[0]
  for (const q of searchQueries(named, 200)) await ask(`/api/catalog/search?q=${encodeURIComponent(q)}`)
  note('after 200 searches')
  for (const [i, season] of seasons.entries())
    for (const q of autocompleteQueries(files[i], 20)) await ask(`/api/catalog/${season}/autocomplete?q=${encodeURIComponent(q)}`)
  note(`after 20 autocompletes in each of ${SEASONS} seasons`)

  /** Every page of every season, one after another as a bot asks: the bytes on the wire and the requests. */
  const sync = async (accept: string) => {
    let bytes = 0
    let requests = 0
    for (const season of seasons) {
      let next: string | null = `/api/catalog/${season}?limit=1000`
      while (next) {
        const res: Response = await fetch(`${url}${next}`, { headers: { 'accept-encoding': accept }, decompress: false } as RequestInit)
        if (res.status !== 200) throw new Error(`${next} answered ${res.status}`)
        bytes += (await res.arrayBuffer()).byteLength
        requests++
        const link: string | null = res.headers.get('link')
        next = link ? link.slice(1, link.indexOf('>')) : null
      }
    }
    return { bytes, requests }
  }
  const synced = Object.fromEntries([
    ['identity', await sync('identity')],
    ['gzip', await sync('gzip')],
    ['br', await sync('br')],
  ])
  note('after a full sync through pages of 1,000, identity, gzip and br')

  for (const season of seasons.slice(-5)) {
    rmSync(path.join(catalog, `${season}.json`))
    await Bun.sleep(1000)
    await ask(`/api/catalog/search?q=${encodeURIComponent(searchQueries(named, 1)[0])}`)
  }
  await until(async () => (await served()).length === SEASONS - 5)
  note('five seasons removed one a second, a search after each')

  const season = seasons[0]
  const rewritten = JSON.stringify(namedSeason(REWRITE, season, 999)).replaceAll('"base_name":"', '"base_name":"Rewritten ')
  const rewrite = await during(async () => {
    await Bun.write(path.join(catalog, `${season}.json`), rewritten)
    await until(async () => (await served()).find((s) => s.season === season)?.variants === REWRITE)
    await until(() => searchable(`Rewritten ${namedSeason(REWRITE, season, 999).sprites[0].base_name}`))
  })
  note(`season ${season} rewritten with ${REWRITE.toLocaleString('en-US')} variants`)
  await Bun.sleep(3000)
  note('3 s later, quiet')

  clearInterval(sampler)
  const peak = Math.max(...steps.map((s) => s.peak))
  const highestOfAll = Math.max(highest, ...steps.map((s) => s.rss))
  /** The figures from before, beside the step they describe. */
  const today: Record<string, string> = {
    'idle, no catalog': '127 MB',
    [steps[1].step]: '270 MB',
    [steps[2].step]: '611 MB after the first search',
    [steps[5].step]: '1,098 MB',
  }
  const megabytes = (n: number) => `${(n / 1e6).toFixed(1)} MB`
  const { identity, gzip, br } = synced
  return [
    ...steps.map((s) => ({
      measure: `resident memory: ${s.step}`,
      today: today[s.step] ?? '',
      value: `${mb(s.rss)}; highest during the step ${mb(s.highest)}`,
      target: '< 400 MB',
    })),
    {
      measure: 'highest resident memory of the whole run (sampled every 100 ms)',
      today: '1,100 MB',
      value: mb(highestOfAll),
      target: '< 400 MB',
    },
    { measure: 'peak resident memory (VmHWM)', today: '1,100 MB', value: mb(peak), target: '< 500 MB' },
    {
      measure: `p99 of other requests while ${SEASONS} files (${VARIANTS.toLocaleString('en-US')} variants) load (${(load.ms / 1000).toFixed(1)} s)`,
      today: 'a GET held 6.3 s',
      value: load.p99,
      target: 'each < 50 ms',
    },
    {
      measure: `p99 of other requests while a season of ${REWRITE.toLocaleString('en-US')} variants is rewritten (${(rewrite.ms / 1000).toFixed(1)} s)`,
      today: 'held 0.83 s',
      value: rewrite.p99,
      target: 'each < 50 ms',
    },
    {
      measure: `a full sync of ${VARIANTS.toLocaleString('en-US')} variants through pages of 1,000 (${identity.requests} requests)`,
      today: '35.2 MB in 102 requests, whatever Accept-Encoding said (about 2 MB compressed)',
      value: `identity ${megabytes(identity.bytes)}; gzip ${megabytes(gzip.bytes)}; br ${megabytes(br.bytes)}`,
      target: 'compressed as asked',
    },
  ]
}

/** The rows as BENCHMARKS.md's table of issue 47's figures. */
export const catalogMemoryTable = (rows: Awaited<ReturnType<typeof catalogMemoryBench>>) =>
  [
    '| measure | before (the issue) | now | target |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.measure} | ${r.today} | ${r.value} | ${r.target} |`),
  ].join('\n')

if (import.meta.main) {
  console.log(catalogMemoryTable(await catalogMemoryBench()))
  process.exit(0)
}
