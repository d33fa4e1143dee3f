// The public catalog pages at 100,000 variants: the site build's time with and without them, and the largest
// catalog page. `bun tests/bench/catalog-site.ts`; not part of the test line.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startServerWithSite } from '../helpers.ts'
import { generatedSeason } from './catalog-data.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-site-'))
await Bun.write(path.join(dir, 'c9s9.json'), JSON.stringify(generatedSeason(Number(process.env.BENCH_VARIANTS ?? 100_000))))
const s = await startServerWithSite({}, { catalogDir: dir })
const start = performance.now()
const build = await s.site!.build('bench')
const ms = performance.now() - start
if (!build.ok) throw new Error(build.error ?? 'the build failed')
const root = path.join(s.site!.currentDir()!, 'catalog')
const sizes = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.html'))
  .map((f) => statSync(path.join(root, f)).size)
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`
console.log(
  `site build with ${process.env.BENCH_VARIANTS ?? 100_000} variants: ${(ms / 1000).toFixed(1)} s; ${sizes.length} catalog pages, largest ${kb(Math.max(...sizes))}, all ${kb(sizes.reduce((a, b) => a + b, 0))}`,
)
await s.stop()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
