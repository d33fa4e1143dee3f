// The test line's runner (tests/test-line.ts): it stops at a failing step, lists the slowest files it measured, and
// fails a line that passed every step but took longer than its budget, saying so.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { failureReports, runLine } from '../test-line.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'test-line-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const bun = process.execPath
const quiet = { name: 'quiet', command: [bun, '-e', '0'] }

function timingsFile(name: string, files: Record<string, number>) {
  const file = path.join(dir, name)
  writeFileSync(file, JSON.stringify({ version: 1, files }))
  return file
}

describe('runLine', () => {
  it('passes a line within its budget and lists its ten slowest existing files, slowest first, labelled by run', async () => {
    const files: Record<string, number> = {}
    for (let i = 1; i <= 12; i++) files[`tests/f${i}.test.ts`] = i * 100
    files['tests/removed.test.ts'] = 99_999 // an entry of a file that no longer exists
    const main = timingsFile('main.json', files)
    const other = timingsFile('other.json', { 'tests/f1.test.ts': 1150 })
    const printed: string[] = []
    const result = await runLine({
      cwd: dir,
      steps: [quiet],
      budgetMinutes: 15,
      timings: () => [{ file: main }, { file: other, label: 'clock at 2027-01-05' }, { file: path.join(dir, 'missing.json') }],
      testFiles: new Set(Object.keys(files).filter((f) => f !== 'tests/removed.test.ts')),
      print: (line) => printed.push(line),
    })
    expect(result.ok).toBe(true)
    expect(result.failure).toBeNull()
    expect(result.slowest.map((s) => s.file)).toEqual([
      'tests/f12.test.ts',
      'tests/f1.test.ts (clock at 2027-01-05)',
      'tests/f11.test.ts',
      'tests/f10.test.ts',
      'tests/f9.test.ts',
      'tests/f8.test.ts',
      'tests/f7.test.ts',
      'tests/f6.test.ts',
      'tests/f5.test.ts',
      'tests/f4.test.ts',
    ])
    const out = printed.join('\n')
    expect(out).toContain('The ten slowest test files')
    expect(out).toContain('1.2 s  tests/f12.test.ts')
    expect(out).toMatch(/The test line passed in \d+\.\d minutes \(budget 15 minutes\)/)
  })

  it('fails a line whose steps all passed but that took longer than its budget, naming the budget', async () => {
    const printed: string[] = []
    const result = await runLine({
      cwd: dir,
      steps: [quiet],
      budgetMinutes: 0,
      timings: () => [],
      testFiles: new Set(),
      print: (l) => printed.push(l),
    })
    expect(result.ok).toBe(false)
    expect(result.totalMs).toBeGreaterThan(0)
    expect(result.failure).toMatch(/^the line took \d+\.\d minutes, over its budget of 0 minutes on this 2-core machine/)
    expect(printed.join('\n')).toContain(`The test line FAILED: ${result.failure}.`)
  })

  it('stops at the first failing step and names it', async () => {
    const marker = path.join(dir, 'ran')
    const result = await runLine({
      cwd: dir,
      steps: [
        { name: 'failing step', command: [bun, '-e', 'process.exit(3)'] },
        { name: 'later step', command: [bun, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`] },
      ],
      budgetMinutes: 15,
      timings: () => [],
      testFiles: new Set(),
      print: () => {},
    })
    expect(result.ok).toBe(false)
    expect(result.failure).toBe('the step "failing step" failed (exit 3)')
    expect(existsSync(marker)).toBe(false)
  })
})

describe('failureReports', () => {
  // As `bun test --parallel=2` printed it: each file's header comes again after another file's output.
  const output = [
    'bun test v1.4.5 (a7733435c) 2x PARALLEL',
    '',
    'tests/a.test.ts:',
    '(pass) one passes [1.08ms]',
    'some log',
    "3 | it('two fails', () => { expect({a: 1}).toEqual({a: 2}) })",
    'error: expect(received).toEqual(expected)',
    '      at <anonymous> (/tmp/bt/tests/a.test.ts:3:65)',
    '(fail) two fails [5.51ms]',
    '',
    'tests/b.test.ts:',
    '(pass) b one [0.19ms]',
    'error: boom in b',
    '(fail) b two throws [0.35ms]',
    '',
    'tests/a.test.ts:',
    'printed by the test that timed out',
    '(fail) three times out [300.01ms]',
    '  ^ this test timed out after 300ms.',
    '(pass) four passes [1.58ms]',
    '',
    '2 tests failed:',
    '(fail) two fails [5.51ms]',
    '(fail) b two throws [0.35ms]',
  ]

  it('gives each failed test its file, what it printed after the test before it, and the note under it', () => {
    expect(failureReports(output)).toEqual([
      [
        'tests/a.test.ts:',
        'some log',
        "3 | it('two fails', () => { expect({a: 1}).toEqual({a: 2}) })",
        'error: expect(received).toEqual(expected)',
        '      at <anonymous> (/tmp/bt/tests/a.test.ts:3:65)',
        '(fail) two fails [5.51ms]',
      ],
      ['tests/b.test.ts:', 'error: boom in b', '(fail) b two throws [0.35ms]'],
      [
        'tests/a.test.ts:',
        'printed by the test that timed out',
        '(fail) three times out [300.01ms]',
        '  ^ this test timed out after 300ms.',
      ],
    ])
  })

  it('keeps the last 60 lines of a long report', () => {
    const long = ['tests/a.test.ts:', ...Array.from({ length: 100 }, (_, i) => `line ${i}`), '(fail) long [1ms]']
    const [report] = failureReports(long)
    expect(report).toHaveLength(62)
    expect(report[1]).toBe('line 40')
  })

  it('repeats them at the end of a failed line', async () => {
    const printed: string[] = []
    const script =
      "console.error('tests/x.test.ts:'); console.error('error: it broke'); console.error('(fail) breaks [1ms]'); process.exit(1)"
    const result = await runLine({
      cwd: dir,
      steps: [{ name: 'tests', command: [bun, '-e', script] }],
      budgetMinutes: 15,
      timings: () => [],
      testFiles: new Set(),
      print: (line) => printed.push(line),
      quiet: true,
    })
    expect(result.ok).toBe(false)
    const out = printed.join('\n')
    expect(out).toContain(
      '=== What each failed test printed (1, repeated from above)\n\ntests/x.test.ts:\nerror: it broke\n(fail) breaks [1ms]',
    )
  })
})
