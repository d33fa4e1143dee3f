// npm run bench: runs every benchmark, prints tables and writes BENCHMARKS.md (medians of BENCH_RUNS runs; a route
// compared with a bare server, over BENCH_ROUNDS rounds; not part of the test line). `npm run bench -- service` or
// `-- catalog` runs one part (the catalog part then replaces only its own rows in BENCHMARKS.md); `-- targets` prints
// issue 33's targets only; `-- catalog-memory` prints issue 47's figures in one run (memory, stalls and a full sync's
// bytes, beside the issue's own; the full run and `-- catalog` print that table too, for BENCHMARKS.md's hand-kept
// "Issue 47" section); BENCH_SCALES=1,10 limits the sizes.
import { cpus, totalmem } from 'node:os'
import path from 'node:path'
import { catalogBench } from './catalog.ts'
import { catalogMemoryBench, catalogMemoryTable } from './catalog-memory.ts'
import { sizeOf } from './dataset.ts'
import { serviceBench } from './service.ts'
import { targetsBench } from './targets.ts'
import { ROUNDS } from './wrk.ts'

const only = process.argv[2]
const targetLine = (r: { measure: string; value: string; target: string }) => `| ${r.measure} | ${r.value} | ${r.target} |`
if (only === 'targets') {
  // Issue 33's targets alone, printed to set beside the earlier figures in BENCHMARKS.md's "Before and after".
  console.log((await targetsBench()).map(targetLine).join('\n'))
  process.exit(0)
}
if (only === 'catalog-memory') {
  // Issue 47's figures alone, in one run, for BENCHMARKS.md's "Issue 47".
  console.log(catalogMemoryTable(await catalogMemoryBench()))
  process.exit(0)
}
const scales = (process.env.BENCH_SCALES ?? '1,10,100').split(',').map(Number)
const service = only === 'catalog' ? { rows: [], growth: [] } : await serviceBench(scales)
const catalogRows = only === 'service' ? [] : await catalogBench()
const issue47 = only === 'service' ? '' : catalogMemoryTable(await catalogMemoryBench())
const targetRows = only ? [] : await targetsBench()
const rows = [...service.rows, ...catalogRows]
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Bun ${Bun.version}, ${process.platform}`
const sizes = scales.map((s) => `${s}×`)
const growthTable = [
  `| measure | ${sizes.join(' | ')} | target |`,
  `|---|${sizes.map(() => '---|').join('')}---|`,
  ...service.growth.map((g) => `| ${g.measure} | ${sizes.map((s) => g.values[s] ?? '').join(' | ')} | ${g.target} |`),
].join('\n')
const line = (r: (typeof rows)[number]) => `| ${r.measure} | ${r.value} | ${r.target} | ${r.ratio} |`
const table = ['| measure | value | target | ratio to a bare Bun.serve in the same run |', '|---|---|---|---|', ...rows.map(line)].join(
  '\n',
)
const sizeWords = scales
  .map((s) => {
    const n = sizeOf(s)
    const f = (x: number) => x.toLocaleString('en-US')
    return `${s}×: ${f(n.households)} households, ${f(n.leads)} leads, ${f(n.history)} history entries, ${f(n.families)} family accounts`
  })
  .join('; ')
console.log(`\nMachine: ${machine}\n\n${growthTable}\n\n${table}\n\nIssue 47, in one run:\n\n${issue47}`)
if (!only) {
  const file = path.join(import.meta.dir, '..', '..', 'BENCHMARKS.md')
  // The hand-kept record of earlier figures beside later ones stays from run to run.
  const earlier = await Bun.file(file).text()
  const record = earlier.includes('\n## Before and after') ? earlier.slice(earlier.indexOf('\n## Before and after')) : ''
  const doc = `# Benchmarks

Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` (medians of ${process.env.BENCH_RUNS ?? 3} runs; a route compared with a bare server, keyed whoami and the catalog route, over ${ROUNDS} rounds of one run each in turn; \`BENCH_RUNS\` and \`BENCH_ROUNDS\` change that).

Machine: ${machine}. The load generator (wrk, one thread, on loopback) shares the cores with the
server, so the absolute numbers move with the machine; the ratio to a bare \`Bun.serve\` answering the
same bytes in the same run is the figure to compare.

## As the data grows

The real service (\`bun server/main.ts\`) on a generated database at three sizes (\`tests/bench/dataset.ts\`):
${sizeWords}. Always 2 units, 200 announcements and 100 nearby units.

${growthTable}

## At 1×, and the catalog

${table}

## Issue 33's targets

The real service on the 10× data (\`tests/bench/targets.ts\`, \`npm run bench -- targets\` alone).

| measure | value | target |
|---|---|---|
${targetRows.map(targetLine).join('\n')}
${record}`
  await Bun.write(file, doc)
  console.log('\nWrote BENCHMARKS.md')
}
if (only === 'catalog') {
  // The catalog's rows are the last of their table, from its first measure on.
  const file = path.join(import.meta.dir, '..', '..', 'BENCHMARKS.md')
  const lines = (await Bun.file(file).text()).split('\n')
  const first = lines.findIndex((l) => l.startsWith(`| ${catalogRows[0].measure.split(',')[0]}`))
  if (first >= 0) {
    let end = first
    while (lines[end]?.startsWith('|')) end++
    lines.splice(first, end - first, ...catalogRows.map(line))
    await Bun.write(file, lines.join('\n'))
    console.log(`\nReplaced the catalog rows of BENCHMARKS.md (measured ${new Date().toISOString().slice(0, 10)}, ${machine})`)
  }
}
process.exit(0)
