// Season-file validation against the fixture folders, flatten(), checkCatalog() and the `catalog-check` command.
import { afterAll, describe, expect, it } from 'bun:test'
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { checkCatalog } from '../../server/catalog/check.ts'
import { flatten, validateSeason } from '../../server/catalog/validate.ts'

const root = path.join(import.meta.dir, '..', '..')
const fixtures = path.join(root, 'tests', 'fixtures', 'catalog')
const schemaFile = path.join(root, 'catalog', 'season.schema.json')

const folders = (kind: 'pass' | 'fail') => readdirSync(path.join(fixtures, kind)).sort()

/** The single season file in a fixture folder. */
function fixture(kind: 'pass' | 'fail', folder: string): { name: string; full: string; text: string } {
  const dir = path.join(fixtures, kind, folder)
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'))
  if (files.length !== 1) throw new Error(`${kind}/${folder} must hold exactly one .json file, has ${files.length}`)
  const full = path.join(dir, files[0])
  return { name: files[0], full, text: readFileSync(full, 'utf8') }
}

const validate = (kind: 'pass' | 'fail', folder: string) => {
  const f = fixture(kind, folder)
  return validateSeason(f.name, f.text)
}

const V = '/sprites/0/variants/0'
const UNKNOWN = 'not a known property'
const ENUM_MODES = 'must be one of br, og, reload, festival, racing, blocks'
const DATE = 'real calendar date'

/** fail/<folder> → the JSON pointer of the expected error and a fragment of its message. */
const FAIL: Record<string, { pointer: string; message: string }> = {
  'required-season': { pointer: '/season', message: 'required' },
  'required-game-mode': { pointer: '/game_mode', message: 'required' },
  'required-sprites': { pointer: '/sprites', message: 'required' },
  'required-base-name': { pointer: '/sprites/0/base_name', message: 'required' },
  'required-row-name': { pointer: '/sprites/0/row_name', message: 'required' },
  'required-variants': { pointer: '/sprites/0/variants', message: 'required' },
  'required-variant': { pointer: `${V}/variant`, message: 'required' },
  'required-status': { pointer: `${V}/status`, message: 'required' },
  'unknown-property-season': { pointer: '/colour', message: UNKNOWN },
  'unknown-property-sprite': { pointer: '/sprites/0/rarity', message: UNKNOWN },
  'unknown-property-variant': { pointer: `${V}/release_date`, message: UNKNOWN },
  'season-pattern-uppercase': { pointer: '/season', message: 'c<chapter>s<season>' },
  'season-pattern-swapped': { pointer: '/season', message: 'c<chapter>s<season>' },
  'season-not-file-stem': { pointer: '/season', message: 'is "c1s1" but the file is named c1s2.json' },
  'game-mode-unknown-season': { pointer: '/game_mode', message: ENUM_MODES },
  'game-mode-unknown-sprite': { pointer: '/sprites/0/game_mode', message: ENUM_MODES },
  'status-unknown': { pointer: `${V}/status`, message: 'must be one of unreleased, released, hidden' },
  'sprites-empty': { pointer: '/sprites', message: 'greater or equal to 1' },
  'variants-empty': { pointer: '/sprites/0/variants', message: 'greater or equal to 1' },
  'base-name-empty': { pointer: '/sprites/0/base_name', message: 'greater or equal to 1' },
  'row-name-empty': { pointer: '/sprites/0/row_name', message: 'greater or equal to 1' },
  'variant-empty': { pointer: `${V}/variant`, message: 'greater or equal to 1' },
  'max-stack-zero': { pointer: `${V}/max_stack`, message: 'greater or equal to 1' },
  'max-stack-fraction': { pointer: `${V}/max_stack`, message: 'integer' },
  'max-stack-string': { pointer: `${V}/max_stack`, message: 'integer' },
  'rarity-weight-zero': { pointer: `${V}/rarity_weight`, message: 'greater than 0' },
  'rarity-weight-negative': { pointer: `${V}/rarity_weight`, message: 'greater than 0' },
  'released-at-month-13': { pointer: `${V}/released_at`, message: DATE },
  'released-at-february-30': { pointer: `${V}/released_at`, message: DATE },
  'released-at-two-digit-year': { pointer: `${V}/released_at`, message: DATE },
  'released-at-unpadded': { pointer: `${V}/released_at`, message: DATE },
  'confirmed-not-boolean': { pointer: `${V}/confirmed`, message: 'boolean' },
  'cross-mode-trading-not-boolean': { pointer: '/cross_mode_trading', message: 'boolean' },
  'base-name-duplicate': { pointer: '/sprites/1/base_name', message: '"Ember Fox" is already used by /sprites/0' },
  'variant-duplicate': { pointer: '/sprites/0/variants/1/variant', message: '"Golden" is already used by /sprites/0/variants/0' },
  'notes-not-string': { pointer: '/sprites/0/notes', message: 'string' },
  'schema-property-not-string': { pointer: '/$schema', message: 'string' },
  'season-not-string': { pointer: '/season', message: 'must be a string' },
  'released-at-not-string': { pointer: `${V}/released_at`, message: 'must be a string' },
  'released-at-while-unreleased': { pointer: `${V}/released_at`, message: 'must be omitted while status is unreleased' },
  'variant-single-not-default': { pointer: `${V}/variant`, message: 'is "Base" but the only variant of a sprite must be called "Default"' },
  'variant-single-lowercase-default': {
    pointer: `${V}/variant`,
    message: 'is "default" but the only variant of a sprite must be called "Default"',
  },
}

/** pass/<folder> → the warnings it is expected to give (every other pass folder gives no problem at all). */
const PASS_WARNINGS: Record<string, { pointer: string; message: string }[]> = {
  'warning-released-without-date': [{ pointer: V, message: 'is released but has no released_at' }],
}

const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})
function tempCatalog(seasonFolders: [kind: 'pass' | 'fail', folder: string][], withSchema = true): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-check-'))
  temps.push(dir)
  for (const [kind, folder] of seasonFolders) cpSync(path.join(fixtures, kind, folder), dir, { recursive: true })
  if (withSchema) copyFileSync(schemaFile, path.join(dir, 'season.schema.json'))
  return dir
}

describe('fixture folders', () => {
  it('have an expectation for every fail folder and a fail folder for every expectation', () => {
    expect(folders('fail')).toEqual(Object.keys(FAIL).sort())
  })
  it('hold exactly one season file per folder', () => {
    for (const kind of ['pass', 'fail'] as const) for (const folder of folders(kind)) expect(() => fixture(kind, folder)).not.toThrow()
  })
})

describe('validateSeason: every fail/ fixture is refused at the expected pointer', () => {
  for (const folder of folders('fail'))
    it(`${folder}`, () => {
      const expected = FAIL[folder]
      expect(expected, `no expectation for fail/${folder}`).toBeDefined()
      const { problems, season } = validate('fail', folder)
      const errors = problems.filter((p) => p.level === 'error')
      expect(season).toBeUndefined()
      expect(errors.length).toBeGreaterThan(0)
      const atPointer = errors.filter((p) => p.pointer === expected.pointer)
      expect(
        atPointer.map((p) => p.pointer),
        JSON.stringify(errors),
      ).toContain(expected.pointer)
      expect(
        atPointer.some((p) => p.message.includes(expected.message)),
        `no error at ${expected.pointer} mentions "${expected.message}": ${JSON.stringify(errors)}`,
      ).toBe(true)
    })
})

describe('validateSeason: every pass/ fixture is accepted', () => {
  for (const folder of folders('pass'))
    it(`${folder}`, () => {
      const { problems, season } = validate('pass', folder)
      expect(problems.filter((p) => p.level === 'error')).toEqual([])
      expect(problems).toEqual((PASS_WARNINGS[folder] ?? []).map((w) => ({ level: 'warning', ...w })))
      expect(season).toBeDefined()
      expect(season!.season).toBe(fixture('pass', folder).name.replace(/\.json$/, ''))
    })
})

describe('validateSeason: rules checked one by one', () => {
  it('accepts every game_mode value at season level and as a sprite override', () => {
    for (const mode of ['br', 'og', 'reload', 'festival', 'racing', 'blocks'] as const) {
      const { season } = validate('pass', `game-mode-${mode}`)
      expect(season?.game_mode).toBe(mode)
      expect(season?.sprites.some((s) => s.game_mode && s.game_mode !== mode)).toBe(true)
    }
    const { season } = validate('pass', 'game-mode-sprite-override-all')
    expect(season?.sprites.map((s) => s.game_mode)).toEqual(['br', 'og', 'reload', 'festival', 'racing', 'blocks'])
  })

  it('accepts every status value', () => {
    const { season } = validate('pass', 'status-all-values')
    expect(season?.sprites[0].variants.map((v) => v.status)).toEqual(['unreleased', 'released', 'hidden'])
  })

  it('treats a released variant without released_at as a warning at the variant pointer and still returns the season', () => {
    const { problems, season } = validate('pass', 'warning-released-without-date')
    expect(problems).toEqual([{ level: 'warning', pointer: '/sprites/0/variants/0', message: 'is released but has no released_at' }])
    expect(season?.season).toBe('c1s1')
  })

  it('does not warn about released_at for unreleased or hidden variants', () => {
    const text = JSON.stringify({
      season: 'c1s1',
      game_mode: 'br',
      sprites: [
        {
          base_name: 'A',
          row_name: 'R',
          variants: [
            { variant: 'Default', status: 'unreleased' },
            { variant: 'Gold', status: 'hidden' },
          ],
        },
      ],
    })
    expect(validateSeason('c1s1.json', text).problems).toEqual([])
  })

  it('refuses text that is not JSON at the root pointer', () => {
    const { problems, season } = validateSeason('c1s1.json', '{"season": "c1s1",')
    expect(season).toBeUndefined()
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatchObject({ level: 'error', pointer: '' })
    expect(problems[0].message).toContain('not valid JSON')
  })

  it('refuses a JSON value that is not an object', () => {
    for (const text of ['[]', 'null', '"c1s1"']) {
      const { problems, season } = validateSeason('c1s1.json', text)
      expect(season).toBeUndefined()
      expect(
        problems.some((p) => p.level === 'error' && p.pointer === ''),
        text,
      ).toBe(true)
    }
  })

  it('compares season with the file name stem, not with the directory', () => {
    const { text } = fixture('pass', 'minimal')
    expect(validateSeason('some/dir/c1s1.json', text).season).toBeDefined()
    expect(validateSeason('c1s11.json', text).problems).toContainEqual({
      level: 'error',
      pointer: '/season',
      message: 'is "c1s1" but the file is named c1s11.json; they must match',
    })
  })

  it('escapes an unknown property name in the JSON pointer (RFC 6901)', () => {
    const { problems } = validateSeason('c1s1.json', JSON.stringify({ ...JSON.parse(fixture('pass', 'minimal').text), 'a/b~c': 1 }))
    expect(problems.map((p) => p.pointer)).toEqual(['/a~1b~0c'])
  })
})

describe('flatten', () => {
  const { season } = validate('pass', 'flatten')
  const rows = flatten(season!)

  it('gives one row per variant, in file order', () => {
    expect(rows.map((r) => `${r.base_name}/${r.variant}`)).toEqual(['Ember Fox/Default', 'Ember Fox/Golden', 'Turbo Beetle/Default'])
  })

  it('applies the defaults: max_stack 1, confirmed false, cross_mode_trading false, rarity_weight null, released_at null', () => {
    expect(rows[0]).toEqual({
      season: 'c2s1',
      base_name: 'Ember Fox',
      row_name: 'Forest Friends',
      variant: 'Default',
      status: 'unreleased',
      released_at: null,
      max_stack: 1,
      rarity_weight: null,
      confirmed: false,
      game_mode: 'og',
      cross_mode_trading: false,
      notes: 'Sprite note.',
    })
  })

  it('keeps the values a variant sets', () => {
    expect(rows[1]).toEqual({
      season: 'c2s1',
      base_name: 'Ember Fox',
      row_name: 'Forest Friends',
      variant: 'Golden',
      status: 'released',
      released_at: '2026-06-19',
      max_stack: 3,
      rarity_weight: 0.2,
      confirmed: true,
      game_mode: 'og',
      cross_mode_trading: false,
      notes: 'Variant note.',
    })
  })

  it("uses the sprite's game_mode override, else the season's", () => {
    expect(rows.map((r) => r.game_mode)).toEqual(['og', 'og', 'racing'])
  })

  it('takes notes from the variant, else the sprite, else null', () => {
    expect(rows.map((r) => r.notes)).toEqual(['Sprite note.', 'Variant note.', null])
  })

  it("copies the season's cross_mode_trading onto every row", () => {
    const on = flatten(validate('pass', 'booleans').season!)
    expect(on.map((r) => r.cross_mode_trading)).toEqual([true, true])
    expect(on.map((r) => r.confirmed)).toEqual([true, false])
  })

  it('gives the sample files one row per variant', async () => {
    for (const name of ['c6s3.json', 'c6s4.json']) {
      const { season: file } = validateSeason(name, await Bun.file(path.join(root, 'catalog', name)).text())
      const variants = file!.sprites.reduce((n, s) => n + s.variants.length, 0)
      expect(flatten(file!)).toHaveLength(variants)
    }
  })
})

describe('checkCatalog', () => {
  const rel = (dir: string) => path.relative(process.cwd(), dir) || '.'
  const schemaLine = (dir: string) =>
    `${path.relative(process.cwd(), path.join(dir, 'season.schema.json'))}: /: ` +
    'differs from the TypeBox source; run `bun server/cli.ts catalog-schema`'

  it('reports a fixture folder as `file: /pointer: message` lines, and the missing schema file as an error', async () => {
    const dir = path.join(fixtures, 'fail', 'variant-duplicate')
    expect(await checkCatalog(dir)).toEqual({
      errors: [`${rel(dir)}/c1s1.json: /sprites/0/variants/1/variant: "Golden" is already used by /sprites/0/variants/0`, schemaLine(dir)],
      warnings: [],
      counts: { errors: 2, warnings: 0 },
    })
  })

  it('puts warnings apart from errors', async () => {
    const dir = path.join(fixtures, 'pass', 'warning-released-without-date')
    expect(await checkCatalog(dir)).toEqual({
      errors: [schemaLine(dir)],
      warnings: [`${rel(dir)}/c1s1.json: /sprites/0/variants/0: is released but has no released_at`],
      counts: { errors: 1, warnings: 1 },
    })
  })

  it('separates errors and warnings of several files in one folder, with the schema file in place', async () => {
    const dir = tempCatalog([
      ['pass', 'warning-released-without-date'],
      ['fail', 'season-not-file-stem'],
      ['pass', 'flatten'],
    ])
    expect(await checkCatalog(dir)).toEqual({
      errors: [`${rel(dir)}/c1s2.json: /season: is "c1s1" but the file is named c1s2.json; they must match`],
      warnings: [`${rel(dir)}/c1s1.json: /sprites/0/variants/0: is released but has no released_at`],
      counts: { errors: 1, warnings: 1 },
    })
  })

  it('writes the root pointer as /', async () => {
    const dir = tempCatalog([])
    writeFileSync(path.join(dir, 'c1s1.json'), '{ not json')
    const { errors } = await checkCatalog(dir)
    expect(errors).toHaveLength(1)
    expect(errors[0].startsWith(`${rel(dir)}/c1s1.json: /: not valid JSON`)).toBe(true)
  })

  it('reports a schema file that differs from the generated one', async () => {
    const dir = tempCatalog([['pass', 'minimal']], false)
    writeFileSync(path.join(dir, 'season.schema.json'), '{}\n')
    expect(await checkCatalog(dir)).toEqual({ errors: [schemaLine(dir)], warnings: [], counts: { errors: 1, warnings: 0 } })
  })

  it('finds nothing wrong in the real catalog folder', async () => {
    expect((await checkCatalog(path.join(root, 'catalog'))).errors).toEqual([])
  })
})

describe('catalog-check command', () => {
  const run = (dir: string) => {
    const proc = Bun.spawnSync([process.execPath, 'server/cli.ts', 'catalog-check', dir], { cwd: root, env: process.env })
    return { code: proc.exitCode, out: proc.stdout.toString() + proc.stderr.toString() }
  }

  it('exits 1 on a folder with an error and prints the error line', () => {
    const dir = tempCatalog([['fail', 'unknown-property-variant']])
    const { code, out } = run(dir)
    expect(code).toBe(1)
    expect(out).toContain('Errors (1):')
    expect(out).toContain(`c1s1.json: /sprites/0/variants/0/release_date: is not a known property`)
    expect(out).not.toContain('Catalog OK')
  })

  it('exits 0 on a folder with only warnings and says so', () => {
    const dir = tempCatalog([['pass', 'warning-released-without-date']])
    const { code, out } = run(dir)
    expect(code).toBe(0)
    expect(out).toContain('Warnings (1):')
    expect(out).toContain('c1s1.json: /sprites/0/variants/0: is released but has no released_at')
    expect(out).toContain('Catalog OK (with warnings)')
    expect(out).not.toContain('Errors')
  })

  it('exits 0 on a clean folder', () => {
    const { code, out } = run(tempCatalog([['pass', 'minimal']]))
    expect(code).toBe(0)
    expect(out).toContain('Catalog OK')
  })

  it('exits 1 when the folder has no season.schema.json', () => {
    const { code, out } = run(tempCatalog([['pass', 'minimal']], false))
    expect(code).toBe(1)
    expect(out).toContain('season.schema.json: /: differs from the TypeBox source')
  })
})
