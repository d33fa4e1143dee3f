// Runs the steps of a test line one after another (stopping at the first that fails), times the whole line, prints
// its ten slowest test files from the runs' timings files, and says whether the line kept within its budget.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

export interface Step {
  name: string
  command: string[]
  /** Variables added to the environment of the step. */
  env?: Record<string, string>
}

export interface LineOptions {
  cwd: string
  steps: Step[]
  budgetMinutes: number
  /** Timings files (`bun test --timings … --update-timings`) to read the per-file durations from after the steps ran. */
  timings: () => { file: string; label?: string }[]
  /** The test files that exist now: only their entries in the timings files are this line's measurements. */
  testFiles: Set<string>
  print?: (line: string) => void
}

export interface LineResult {
  ok: boolean
  /** Why the line failed, in a sentence (null when it passed). */
  failure: string | null
  totalMs: number
  slowest: { file: string; ms: number }[]
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9)

export async function runLine(options: LineOptions): Promise<LineResult> {
  const print = options.print ?? console.log
  const started = performance.now()
  const took: { name: string; ms: number }[] = []
  let failure: string | null = null
  for (const step of options.steps) {
    print(`\n=== ${step.name}: ${step.command.map((c, i) => (i === 0 ? path.basename(c) : c)).join(' ')}`)
    const stepStart = performance.now()
    const code = await Bun.spawn(step.command, {
      cwd: options.cwd,
      env: { ...process.env, ...step.env },
      stdio: ['inherit', 'inherit', 'inherit'],
    }).exited
    took.push({ name: step.name, ms: performance.now() - stepStart })
    if (code !== 0) {
      failure = `the step "${step.name}" failed (exit ${code})`
      break
    }
  }
  const totalMs = performance.now() - started

  const measured: { file: string; ms: number }[] = []
  for (const { file, label } of options.timings()) {
    if (!existsSync(file)) continue
    const files = JSON.parse(readFileSync(file, 'utf8')).files as Record<string, number>
    for (const [name, ms] of Object.entries(files))
      if (options.testFiles.has(name)) measured.push({ file: label ? `${name} (${label})` : name, ms })
  }
  const slowest = measured.sort((a, b) => b.ms - a.ms).slice(0, 10)
  print('\n=== The ten slowest test files (wall time each, in its worker)')
  for (const { file, ms } of slowest) print(`${seconds(ms)}  ${file}`)
  print('\n=== Steps')
  for (const step of took) print(`${seconds(step.ms)}  ${step.name}`)
  print(`${seconds(totalMs)}  the whole line (budget ${options.budgetMinutes} minutes)`)

  const minutes = (totalMs / 60_000).toFixed(1)
  if (!failure && totalMs > options.budgetMinutes * 60_000)
    failure =
      `the line took ${minutes} minutes, over its budget of ${options.budgetMinutes} minutes on this 2-core machine: ` +
      'make the slowest files above faster before adding more'
  print(
    failure
      ? `\nThe test line FAILED: ${failure}.`
      : `\nThe test line passed in ${minutes} minutes (budget ${options.budgetMinutes} minutes).`,
  )
  return { ok: failure === null, failure, totalMs, slowest }
}
