// Catalog benchmark: check + flatten of a generated 50,000-variant season, and the bot's route against a bare Bun.serve.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { schemaFileText } from '../../server/catalog/schema.ts'
import { flatten, validateSeason } from '../../server/catalog/validate.ts'
import { startServer } from '../helpers.ts'
import { ensureWrk, median, wrk } from './wrk.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const MODES = ['br', 'og', 'reload', 'festival', 'racing', 'blocks']
const STATUSES = ['unreleased', 'released', 'hidden']

function generatedSeason(variants: number) {
  const sprites = []
  for (let i = 0; i < variants / 5; i++)
    sprites.push({
      base_name: `Sprite ${i}`,
      row_name: `Row ${i % 200}`,
      ...(i % 7 === 0 ? { game_mode: MODES[i % MODES.length] } : {}),
      variants: Array.from({ length: 5 }, (_, j) => ({
        variant: j === 0 ? 'Default' : `Style ${j}`,
        status: STATUSES[(i + j) % 3],
        ...((i + j) % 3 === 1 ? { released_at: '2026-06-05' } : {}),
        max_stack: 1 + (j % 3),
        rarity_weight: 0.1 + j / 10,
        confirmed: j % 2 === 0,
      })),
    })
  return { season: 'c9s9', game_mode: 'br', sprites }
}

export async function catalogBench() {
  ensureWrk()
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-bench-'))
  const text = JSON.stringify(generatedSeason(50_000))
  await Bun.write(path.join(dir, 'c9s9.json'), text)
  await Bun.write(path.join(dir, 'season.schema.json'), schemaFileText())

  const times: number[] = []
  let rows = 0
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    const { season, problems } = validateSeason('c9s9.json', text)
    if (!season) throw new Error(`generated season is invalid: ${JSON.stringify(problems.slice(0, 3))}`)
    rows = flatten(season).length
    times.push(performance.now() - start)
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024

  const s = await startServer({}, { catalogDir: dir })
  const url = `${s.url}/api/catalog/c9s9?row_name=Row%201`
  const first = await fetch(url)
  const etag = first.headers.get('etag')!
  const bytes = new Uint8Array(await first.arrayBuffer())
  const bare = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req) =>
      req.headers.get('if-none-match') === etag
        ? new Response(null, { status: 304, headers: { etag } })
        : new Response(bytes, { headers: { 'content-type': 'application/json', etag } }),
  })
  const bareUrl = `http://127.0.0.1:${bare.port}/`
  const result = { r304: [] as number[], b304: [] as number[], r200: [] as number[], b200: [] as number[] }
  for (let i = 0; i < RUNS; i++) {
    result.r304.push((await wrk(url, { headers: { 'if-none-match': etag }, seconds: 3 })).rps)
    result.b304.push((await wrk(bareUrl, { headers: { 'if-none-match': etag }, seconds: 3 })).rps)
    result.r200.push((await wrk(url, { seconds: 3 })).rps)
    result.b200.push((await wrk(bareUrl, { seconds: 3 })).rps)
  }
  bare.stop(true)
  await s.stop()
  rmSync(dir, { recursive: true, force: true })
  const r = (xs: number[]) => Math.round(median(xs))
  return [
    { measure: `check + flatten, ${rows} variants`, value: `${median(times).toFixed(0)} ms`, target: '< 1000 ms', ratio: '' },
    { measure: 'peak resident memory of the bench process', value: `${peakRssMb.toFixed(0)} MB`, target: '', ratio: '' },
    {
      measure: `GET /api/catalog/:season → 304 (${bytes.length} B body)`,
      value: `${r(result.r304)} req/s`,
      target: '≥ 50% of bare',
      ratio: `${((100 * median(result.r304)) / median(result.b304)).toFixed(0)}% of ${r(result.b304)}`,
    },
    {
      measure: 'GET /api/catalog/:season → 200',
      value: `${r(result.r200)} req/s`,
      target: '≥ 50% of bare',
      ratio: `${((100 * median(result.r200)) / median(result.b200)).toFixed(0)}% of ${r(result.b200)}`,
    },
  ]
}
