// The README's test line (`npm test`): system packages, the format and type check, every test file in parallel worker
// processes (the slowest first, from the last run's timings), the page-speed file alone, then the calendar tests again
// under faketime. The whole line has a budget: it fails when it takes longer, even when every test passed.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { runLine } from './test-line.ts'

const ROOT = path.join(import.meta.dir, '..')
const RESULTS = path.join(ROOT, 'test-results')
/** Last run's per-file durations (ignored by git). */
const TIMINGS = path.join(RESULTS, 'timings.json')
/** The durations a fresh clone starts from, until it has measured its own. */
const SEED_TIMINGS = path.join(import.meta.dir, 'fixtures', 'timings.json')
/** Worker processes for the test files; `TEST_WORKERS` overrides. */
const WORKERS = process.env.TEST_WORKERS ?? '3'
/**
 * Lighthouse's performance score, which runs after the other files on a machine otherwise quiet: Lighthouse counts
 * each of the page's tasks four times over (a phone's processor), so the other workers' load stretching those tasks
 * took pages that score 97–100 alone down to 74–91 on a busy CI machine.
 */
const PAGE_SPEED = 'tests/e2e/lighthouse-signed-in.test.ts'

mkdirSync(RESULTS, { recursive: true })
if (!existsSync(TIMINGS) && existsSync(SEED_TIMINGS)) copyFileSync(SEED_TIMINGS, TIMINGS)
// tests/any-date.sh writes one timings file per day it runs.
for (const f of readdirSync(RESULTS)) if (f.startsWith('any-date-')) rmSync(path.join(RESULTS, f))

const bun = process.execPath
const testEnv = {
  // Test servers' site builds at the tests' own priority: at a lower one, a file waiting for its build would wait on
  // every other worker's busy file.
  SITE_BUILD_NICENESS: '0',
  // Bun's allocator keeps the memory it freed for its next allocations instead of handing it back to the system at
  // once. On these virtual machines a page handed back costs about 13 µs to get again (the guest reports free pages to
  // its host), and the tests' processes allocate and free all the time: an API file runs about a quarter faster.
  MIMALLOC_PURGE_DELAY: '-1',
}
const result = await runLine({
  cwd: ROOT,
  // Issue 46: the line fails past 15 minutes on the 2-core machine (docs/contributing.md has its times).
  budgetMinutes: 15,
  steps: [
    { name: 'system packages', command: ['bash', 'tests/install-system-deps.sh'] },
    { name: 'format and type check', command: ['npm', 'run', 'check'] },
    {
      name: `test files in ${WORKERS} worker processes`,
      command: [
        bun,
        'test',
        '--timeout',
        '120000',
        `--parallel=${WORKERS}`,
        `--timings=${TIMINGS}`,
        '--update-timings',
        // Each worker keeps its modules across the files it runs, as one `bun test` process always has: a file no
        // longer loads the server, Playwright and the helpers again (the API files alone: 274 to 216 CPU-s). Every
        // file still starts and stops its own servers, and must stop what it starts.
        '--no-isolate',
        `--path-ignore-patterns=${PAGE_SPEED}`,
      ],
      env: testEnv,
    },
    {
      name: 'page speed alone (Lighthouse)',
      command: [bun, 'test', '--timeout', '120000', `--timings=${TIMINGS}`, '--update-timings', `./${PAGE_SPEED}`],
      env: testEnv,
    },
    { name: 'calendar tests on other days (faketime)', command: ['bash', 'tests/any-date.sh'], env: testEnv },
  ],
  timings: () => [
    { file: TIMINGS },
    ...readdirSync(RESULTS)
      .filter((f) => f.startsWith('any-date-') && f.endsWith('.json'))
      .map((f) => ({ file: path.join(RESULTS, f), label: `clock at ${f.slice('any-date-'.length, -'.json'.length)}` })),
  ],
  testFiles: new Set(new Bun.Glob('tests/**/*.test.ts').scanSync({ cwd: ROOT })),
})
process.exit(result.ok ? 0 : 1)
