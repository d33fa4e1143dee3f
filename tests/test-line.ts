// Runs the steps of a test line one after another (stopping at the first that fails), times the whole line, prints
// its ten slowest test files from the runs' timings files, and says whether the line kept within its budget. What a
// failed test printed is repeated at the end: a CI log is often kept only from its tail.
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
  /** Keeps the steps' own output from the terminal (the runner's tests). */
  quiet?: boolean
}

export interface LineResult {
  ok: boolean
  /** Why the line failed, in a sentence (null when it passed). */
  failure: string | null
  totalMs: number
  slowest: { file: string; ms: number }[]
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9)

/** Lines a failed test's report keeps from its end: a long diff or log is cut from the top. */
const REPORT_LINES = 60
const FILE_HEADER = /^(\S+\.test\.[cm]?[jt]sx?):$/
const RESULT = /^\((pass|fail|skip|todo)\) /

/**
 * What each failed test printed, from `bun test` output: in a file's section (its `path:` header line, which comes
 * again whenever another parallel worker's output came between), the lines after the test before it, the `(fail)`
 * line, and the note under it (a timeout).
 */
export function failureReports(output: string[]): string[][] {
  const reports: string[][] = []
  const pending = new Map<string, string[]>()
  let file = ''
  let last: string[] | null = null
  for (const line of output) {
    if (/^\s*\d+ tests? failed:$/.test(line)) break // bun's closing list names them again, without their files
    const header = FILE_HEADER.exec(line)
    if (header) {
      file = header[1]
      last = null
      continue
    }
    const result = RESULT.exec(line)
    if (last && !result && line.startsWith('  ^')) {
      last.push(line)
      continue
    }
    last = null
    const lines = pending.get(file) ?? []
    if (!result) {
      lines.push(line)
      pending.set(file, lines.length > REPORT_LINES ? lines.slice(-REPORT_LINES) : lines)
      continue
    }
    pending.set(file, [])
    if (result[1] !== 'fail') continue
    last = [...(file ? [`${file}:`] : []), ...lines.filter((l) => l.trim() !== ''), line]
    reports.push(last)
  }
  return reports
}

/** Runs a command, passing its output through as it comes, and answers its exit code and its output's lines. */
async function run(step: Step, cwd: string, quiet = false): Promise<{ code: number; lines: string[] }> {
  const child = Bun.spawn(step.command, { cwd, env: { ...process.env, ...step.env }, stdin: 'inherit', stdout: 'pipe', stderr: 'pipe' })
  const lines: string[] = []
  const pass = async (stream: ReadableStream<Uint8Array>, to: NodeJS.WriteStream) => {
    const decoder = new TextDecoder()
    let rest = ''
    for await (const chunk of stream) {
      if (!quiet) to.write(chunk)
      const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n')
      rest = parts.pop()!
      lines.push(...parts)
    }
    if (rest) lines.push(rest)
  }
  await Promise.all([pass(child.stdout, process.stdout), pass(child.stderr, process.stderr)])
  return { code: await child.exited, lines }
}

export async function runLine(options: LineOptions): Promise<LineResult> {
  const print = options.print ?? console.log
  const started = performance.now()
  const took: { name: string; ms: number }[] = []
  let failure: string | null = null
  let failed: string[][] = []
  for (const step of options.steps) {
    print(`\n=== ${step.name}: ${step.command.map((c, i) => (i === 0 ? path.basename(c) : c)).join(' ')}`)
    const stepStart = performance.now()
    const { code, lines } = await run(step, options.cwd, options.quiet)
    took.push({ name: step.name, ms: performance.now() - stepStart })
    if (code !== 0) {
      failure = `the step "${step.name}" failed (exit ${code})`
      failed = failureReports(lines)
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
  if (failed.length) {
    print(`\n=== What each failed test printed (${failed.length}, repeated from above)`)
    for (const report of failed) print(`\n${report.join('\n')}`)
  }
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
