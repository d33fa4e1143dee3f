// npm run bench: runs every benchmark, prints a table and writes BENCHMARKS.md (medians of BENCH_RUNS runs; not part of the test line).
import { cpus, totalmem } from 'node:os'
import path from 'node:path'
import { catalogBench } from './catalog.ts'
import { serviceBench } from './service.ts'

const only = process.argv[2]
const rows = [...(only === 'catalog' ? [] : await serviceBench()), ...(only === 'service' ? [] : await catalogBench())]
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Bun ${Bun.version}, ${process.platform}`
const table = [
  '| measure | value | target | ratio to a bare Bun.serve in the same run |',
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.measure} | ${r.value} | ${r.target} | ${r.ratio} |`),
].join('\n')
console.log(`\nMachine: ${machine}\n\n${table}`)
if (!only) {
  const doc = `# Benchmarks

Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` (medians of ${process.env.BENCH_RUNS ?? 3} runs; \`BENCH_RUNS\` changes that).

Machine: ${machine}. The load generator (wrk, one thread, on loopback) shares the cores with the
server, so the absolute numbers move with the machine; the ratio to a bare \`Bun.serve\` answering the
same bytes in the same run is the figure to compare.

Data: 2 units, 300 households, 10,000 leads, 200 announcements, 100 nearby units, 500 pages (25,000
entries) of history; the real service started with \`bun server/main.ts\`.

${table}
`
  await Bun.write(path.join(import.meta.dir, '..', '..', 'BENCHMARKS.md'), doc)
  console.log('\nWrote BENCHMARKS.md')
}
process.exit(0)
