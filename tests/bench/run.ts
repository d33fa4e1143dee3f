// npm run bench: runs every benchmark and prints a table (medians of BENCH_RUNS runs; not part of the test line).
import { catalogBench } from './catalog.ts'

const rows = [...(await catalogBench())]
console.log(`\nMachine: ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}\n`)
console.log('| measure | value | target | ratio to bare Bun.serve |\n|---|---|---|---|')
for (const r of rows) console.log(`| ${r.measure} | ${r.value} | ${r.target} | ${r.ratio} |`)
process.exit(0)
