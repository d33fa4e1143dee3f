// Season-file rules of issue 17: file names, "Default" for a single form, no released_at while unreleased, `$schema`,
// one-line messages, the cut at 200 errors, type messages; and the generated schema agreeing with the checker (Ajv).
import { afterAll, describe, expect, it } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { checkCatalog } from '../../server/catalog/check.ts'
import { jsonSchema } from '../../server/catalog/schema.ts'
import { validateSeason } from '../../server/catalog/validate.ts'
import { isCalendarDate } from '../../server/formats.ts'

const root = path.join(import.meta.dir, '..', '..')
const fixtures = path.join(root, 'tests', 'fixtures', 'catalog')
const FILE_NAME_RULE =
  'is not a season followed by .json, like c6s3.json (lower-case c and s, digits 0-9); season must equal the file name stem'

/** A valid season file for `season`, with one sprite per entry of `sprites` (default: one single-form sprite). */
const seasonText = (season: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    season,
    game_mode: 'br',
    sprites: [{ base_name: 'Ember Fox', row_name: 'Forest Friends', variants: [{ variant: 'Default', status: 'unreleased' }] }],
    ...extra,
  })

const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})
/** A catalog folder holding the generated schema and the given files. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-rules-'))
  temps.push(dir)
  copyFileSync(path.join(root, 'catalog', 'season.schema.json'), path.join(dir, 'season.schema.json'))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}
const rel = (dir: string) => path.relative(process.cwd(), dir) || '.'

describe('season file names (the rule "season equals the file name stem")', () => {
  for (const [name, season] of [
    ['C6S3.json', 'c6s3'],
    ['s6c3.json', 'c6s3'],
    ['c١s١.json', 'c١s١'],
    ['c6s3.JSON', 'c6s3'],
    ['notes.json', 'c6s3'],
  ])
    it(`refuses ${name} by name instead of skipping it`, async () => {
      const dir = folder({ [name]: seasonText(season) })
      const { errors } = await checkCatalog(dir)
      expect(errors).toContain(`${rel(dir)}/${name}: /: file name "${name}" ${FILE_NAME_RULE}`)
    })

  it('checks every *.json but season.schema.json, and skips hidden files and other extensions', async () => {
    const dir = folder({ 'c1s1.json': seasonText('c1s1'), '.c1s2.json': '{', 'c1s3.json~': '{', 'README.md': '# notes' })
    expect(await checkCatalog(dir)).toEqual({ errors: [], warnings: [], counts: { errors: 0, warnings: 0 } })
  })

  it('reports both the name and the mismatch when C6S3.json holds season c6s3', () => {
    expect(validateSeason('C6S3.json', seasonText('c6s3')).problems).toEqual([
      { level: 'error', pointer: '', message: `file name "C6S3.json" ${FILE_NAME_RULE}` },
      { level: 'error', pointer: '/season', message: 'is "c6s3" but the file is named C6S3.json; they must match' },
    ])
  })

  it('makes catalog-check exit 1 without "Catalog OK"', () => {
    const dir = folder({ 'c1s1.json': seasonText('c1s1'), 'C6S3.json': seasonText('c6s3') })
    const proc = Bun.spawnSync([process.execPath, 'server/cli.ts', 'catalog-check', dir], { cwd: root, env: process.env })
    const out = proc.stdout.toString()
    expect(proc.exitCode).toBe(1)
    expect(out).toContain(`C6S3.json: /: file name "C6S3.json" ${FILE_NAME_RULE}`)
    expect(out).not.toContain('Catalog OK')
  })
})

describe('the only variant of a sprite is called Default', () => {
  const withVariants = (...names: string[]) =>
    seasonText('c1s1', {
      sprites: [{ base_name: 'A', row_name: 'R', variants: names.map((variant) => ({ variant, status: 'unreleased' })) }],
    })

  it('refuses any other name, in any case or spacing, for a single variant', () => {
    for (const name of ['Base', 'default', 'DEFAULT', ' Default', 'Default '])
      expect(validateSeason('c1s1.json', withVariants(name)).problems).toEqual([
        {
          level: 'error',
          pointer: '/sprites/0/variants/0/variant',
          message: `is ${JSON.stringify(name)} but the only variant of a sprite must be called "Default"`,
        },
      ])
  })

  it('does not apply to a sprite with several variants', () => {
    expect(validateSeason('c1s1.json', withVariants('Red', 'Blue')).problems).toEqual([])
    expect(validateSeason('c1s1.json', withVariants('Default', 'Golden')).problems).toEqual([])
  })
})

describe('released_at is omitted while unreleased', () => {
  const variant = (status: string, released_at?: string) =>
    seasonText('c1s1', {
      sprites: [{ base_name: 'A', row_name: 'R', variants: [{ variant: 'Default', status, ...(released_at ? { released_at } : {}) }] }],
    })

  it('refuses an unreleased variant with a released_at', () => {
    expect(validateSeason('c1s1.json', variant('unreleased', '2026-06-05')).problems).toEqual([
      { level: 'error', pointer: '/sprites/0/variants/0/released_at', message: 'must be omitted while status is unreleased' },
    ])
  })

  it('allows it on released and hidden variants', () => {
    expect(validateSeason('c1s1.json', variant('released', '2026-06-05')).problems).toEqual([])
    expect(validateSeason('c1s1.json', variant('hidden', '2026-06-05')).problems).toEqual([])
  })
})

describe('top-level $schema', () => {
  it('is accepted as a string at the top level only', () => {
    expect(validateSeason('c1s1.json', seasonText('c1s1', { $schema: './season.schema.json' })).problems).toEqual([])
    const nested = JSON.parse(seasonText('c1s1'))
    nested.sprites[0].$schema = './season.schema.json'
    expect(validateSeason('c1s1.json', JSON.stringify(nested)).problems.map((p) => p.pointer)).toEqual(['/sprites/0/$schema'])
  })
})

describe('messages stay one line', () => {
  const lines = async (files: Record<string, string>) => {
    const { errors, warnings } = await checkCatalog(folder(files))
    return [...errors, ...warnings]
  }

  it('quotes values, property names and file names holding a line break', async () => {
    const file = JSON.parse(seasonText('c1s1'))
    const twoLines = { base_name: 'Two\nlines', row_name: 'R', variants: file.sprites[0].variants }
    file.sprites.push(twoLines, twoLines)
    const all = await lines({ 'c1s1.json': JSON.stringify(file) })
    expect(all).toContainEqual(expect.stringContaining('/sprites/2/base_name: "Two\\nlines" is already used by /sprites/1'))
    const unknown = await lines({ 'c1s1.json': seasonText('c1s1', { 'a\nb': 1 }), 'c1\u2028s1.json': seasonText('c1s1') })
    expect(unknown).toContainEqual(expect.stringContaining('c1s1.json: "/a\\nb": is not a known property'))
    expect(unknown).toContainEqual(expect.stringContaining('"c1\\u2028s1.json"'))
    for (const line of [...all, ...unknown]) expect(line).not.toMatch(/[\n\r\u2028\u2029]/)
  })

  it('says how many more errors there were after the first 200', () => {
    const sprites = Array.from({ length: 237 }, (_, i) => ({
      base_name: `S${i}`,
      variants: [{ variant: 'Default', status: 'unreleased' }],
    }))
    const { problems } = validateSeason('c1s1.json', seasonText('c1s1', { sprites }))
    expect(problems).toHaveLength(201)
    expect(problems.slice(0, 200).every((p) => p.message === 'is required but missing')).toBe(true)
    expect(problems[200]).toEqual({ level: 'error', pointer: '', message: '… and 37 more errors' })
  })

  it('counts every error, not the lines listed, in catalog-check', async () => {
    const sprites = Array.from({ length: 237 }, (_, i) => ({
      base_name: `S${i}`,
      variants: [{ variant: 'Default', status: 'unreleased' }],
    }))
    const dir = folder({ 'c1s1.json': seasonText('c1s1', { sprites }) })
    const report = await checkCatalog(dir)
    expect(report.errors).toHaveLength(201)
    expect(report.counts).toEqual({ errors: 237, warnings: 0 })
    const run = Bun.spawnSync([process.execPath, 'server/cli.ts', 'catalog-check', dir], { cwd: root })
    expect(run.stdout.toString()).toStartWith('Errors (237):\n')
  })

  it('cuts the rules after the schema the same way', () => {
    const sprites = Array.from({ length: 202 }, () => ({
      base_name: 'Same',
      row_name: 'R',
      variants: [{ variant: 'Default', status: 'unreleased' }],
    }))
    const { problems } = validateSeason('c1s1.json', seasonText('c1s1', { sprites }))
    expect(problems).toHaveLength(201)
    expect(problems[200].message).toBe('… and 1 more error')
  })
})

describe('a wrong type is named as such', () => {
  const problemsAt = (text: string, pointer: string) =>
    validateSeason('c1s1.json', text)
      .problems.filter((p) => p.pointer === pointer)
      .map((p) => p.message)

  it('says "must be a string" for a season that is not a string, not what a season looks like', () => {
    expect(problemsAt(seasonText('c1s1', { season: 6 }), '/season')).toEqual(['must be a string'])
    expect(problemsAt(seasonText('c1s1', { season: 'C1S1' }), '/season')).toContain('must look like c6s3 (c<chapter>s<season>)')
  })

  it('says "must be a string" for a released_at that is a number, and the date rule only for strings', () => {
    const at = (released_at: unknown) =>
      seasonText('c1s1', {
        sprites: [{ base_name: 'A', row_name: 'R', variants: [{ variant: 'Default', status: 'hidden', released_at }] }],
      })
    expect(problemsAt(at(20260605), '/sprites/0/variants/0/released_at')).toEqual(['must be a string'])
    expect(problemsAt(at('2026-02-30'), '/sprites/0/variants/0/released_at')).toEqual(['must be a real calendar date written YYYY-MM-DD'])
  })

  it('reports a missing field once, as missing', () => {
    expect(
      validateSeason('c1s1.json', JSON.stringify({ game_mode: 'br', sprites: JSON.parse(seasonText('c1s1')).sprites })).problems,
    ).toEqual([{ level: 'error', pointer: '/season', message: 'is required but missing' }])
  })
})

describe('catalog/season.schema.json under Ajv 2020 (strict) agrees with the checker', () => {
  const warnings: unknown[] = []
  const log = (...args: unknown[]) => warnings.push(args)
  const ajv = new Ajv2020({ strict: true, allErrors: true, logger: { log, warn: log, error: log } })
  ajv.addFormat('date', isCalendarDate)
  const schema = JSON.parse(readFileSync(path.join(root, 'catalog', 'season.schema.json'), 'utf8'))
  const check = ajv.compile(schema)
  const seasonFile = (kind: string, name: string) => {
    const dir = path.join(fixtures, kind, name)
    return JSON.parse(
      readFileSync(
        path.join(
          dir,
          readdirSync(dir).find((f) => f.endsWith('.json'))!,
        ),
        'utf8',
      ),
    )
  }
  // Rules no JSON Schema can state: uniqueness and the file name.
  const CHECKER_ONLY = ['base-name-duplicate', 'variant-duplicate', 'season-not-file-stem']

  it('compiles without a warning and passes the meta-schema', () => {
    expect(warnings).toEqual([])
    expect(ajv.validateSchema(schema)).toBe(true)
    expect(schema).toEqual(jsonSchema())
  })

  it('accepts every pass/ fixture', () => {
    for (const name of readdirSync(path.join(fixtures, 'pass'))) expect(check(seasonFile('pass', name)), name).toBe(true)
  })

  it('refuses every fail/ fixture a schema can refuse', () => {
    for (const name of readdirSync(path.join(fixtures, 'fail')))
      expect(check(seasonFile('fail', name)), name).toBe(CHECKER_ONLY.includes(name))
  })
})
