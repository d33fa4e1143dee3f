// Validates one season file: the JSON Schema rules, then the rules a schema cannot express; and flattens it.
import type { CatalogVariant } from './tables.ts'
import { type Static, TypeGuard } from '@sinclair/typebox'
import { TypeCompiler, ValueErrorType, type ValueError } from '@sinclair/typebox/compiler'
import path from 'node:path'
import { quote, readJson } from './json-text.ts'
import { Season, stringConsts } from './schema.ts'

export type SeasonFile = Static<typeof Season>

export interface Problem {
  level: 'error' | 'warning'
  pointer: string
  message: string
}

/** How many errors and warnings a file has, the ones past the listed first MAX_LISTED included. */
export interface ProblemCounts {
  errors: number
  warnings: number
}

/** A variant as the file gives it, flattened (the columns kept for syncing and search come with the load). */
export type CatalogRow = Omit<
  CatalogVariant,
  | 'id'
  | 'confirmed'
  | 'cross_mode_trading'
  | 'variant_id'
  | 'changed_seq'
  | 'chapter'
  | 'season_no'
  | 'search_text'
  | 'added_at'
  | 'changed_at'
  | 'ord'
  | 'row_key'
> & {
  confirmed: boolean
  cross_mode_trading: boolean
}

const compiled = TypeCompiler.Compile(Season)
/** At most this many errors (and as many warnings) are listed; a last line says how many more there were. */
export const MAX_LISTED = 200
/** What a season file must be named: its season, then .json (the rule "season equals the file name stem"). */
export const SEASON_FILE_NAME = /^c[0-9]+s[0-9]+\.json$/

const TYPE_NAMES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'a string',
  [ValueErrorType.Number]: 'a number',
  [ValueErrorType.Integer]: 'an integer',
  [ValueErrorType.Boolean]: 'a boolean (true or false)',
  [ValueErrorType.Object]: 'an object',
  [ValueErrorType.Array]: 'an array',
}

function schemaMessage(error: ValueError): string {
  const s = error.schema
  // Each message speaks of the check that failed: a number where a string belongs is "must be a string", never
  // what the string should look like.
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'is required but missing'
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a known property (unknown properties are refused)'
  const type = TYPE_NAMES[error.type]
  if (type) return `must be ${type}`
  const consts = error.type === ValueErrorType.Union && stringConsts(s)
  if (consts) return `must be one of ${consts.join(', ')}`
  if (error.type === ValueErrorType.StringFormat && TypeGuard.IsString(s) && s.format === 'date')
    return 'must be a real calendar date written YYYY-MM-DD'
  if (error.type === ValueErrorType.StringPattern && TypeGuard.IsString(s) && s.pattern === '^c[0-9]+s[0-9]+$')
    return 'must look like c6s3 (c<chapter>s<season>)'
  return error.message.charAt(0).toLowerCase() + error.message.slice(1)
}

/** The schema's problems, each path and message once; a missing property is reported as missing, not as mistyped. */
function schemaProblems(data: unknown): Problem[] {
  const problems: Problem[] = []
  if (compiled.Check(data)) return problems
  const seen = new Set<string>()
  for (const e of compiled.Errors(data)) {
    if (e.value === undefined && e.type !== ValueErrorType.ObjectRequiredProperty) continue
    const message = schemaMessage(e)
    const key = `${e.path}\0${message}`
    if (seen.has(key)) continue
    seen.add(key)
    problems.push({ level: 'error', pointer: e.path, message })
  }
  return problems
}

/** The rules the schema cannot express (uniqueness) or that its error messages would state poorly. */
function ruleProblems(file: SeasonFile): Problem[] {
  const problems: Problem[] = []
  const error = (pointer: string, message: string) => problems.push({ level: 'error', pointer, message })
  const baseNames = new Map<string, number>()
  file.sprites.forEach((sprite, i) => {
    const first = baseNames.get(sprite.base_name)
    if (first !== undefined) error(`/sprites/${i}/base_name`, `${quote(sprite.base_name)} is already used by /sprites/${first}`)
    else baseNames.set(sprite.base_name, i)
    const variants = new Map<string, number>()
    sprite.variants.forEach((v, j) => {
      const at = `/sprites/${i}/variants/${j}`
      const earlier = variants.get(v.variant)
      if (earlier !== undefined) error(`${at}/variant`, `${quote(v.variant)} is already used by /sprites/${i}/variants/${earlier}`)
      else variants.set(v.variant, j)
      if (sprite.variants.length === 1 && v.variant !== 'Default')
        error(`${at}/variant`, `is ${quote(v.variant)} but the only variant of a sprite must be called "Default"`)
      if (v.status === 'unreleased' && v.released_at !== undefined) error(`${at}/released_at`, 'must be omitted while status is unreleased')
      if (v.status === 'released' && !v.released_at)
        problems.push({ level: 'warning', pointer: at, message: 'is released but has no released_at' })
    })
  })
  return problems
}

/** The first MAX_LISTED errors and warnings, each list followed by "… and N more" when it was longer. */
function capped(problems: Problem[]): Problem[] {
  const listed: Problem[] = []
  for (const level of ['error', 'warning'] as const) {
    const all = problems.filter((p) => p.level === level)
    listed.push(...all.slice(0, MAX_LISTED))
    const more = all.length - MAX_LISTED
    if (more > 0) listed.push({ level, pointer: '', message: `… and ${more} more ${level}${more === 1 ? '' : 's'}` })
  }
  return listed
}

/** A file name or pointer for a one-line message: as it is, or JSON-quoted when it holds a line break or control character. */
export const oneLine = (text: string) => (/[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(text) ? quote(text) : text)

/**
 * Every problem of a season file read from `input` (its bytes, or text already decoded); `season` is set when the file
 * has no errors (warnings allowed). `fileName` may carry a directory: only its last part is the file name.
 */
export function validateSeason(
  fileName: string,
  input: string | Uint8Array,
): { problems: Problem[]; counts: ProblemCounts; season?: SeasonFile } {
  const name = path.basename(fileName)
  const problems: Problem[] = []
  if (!SEASON_FILE_NAME.test(name))
    problems.push({
      level: 'error',
      pointer: '',
      message: `file name ${quote(name)} is not a season followed by .json, like c6s3.json (lower-case c and s, digits 0-9); season must equal the file name stem`,
    })
  const read = readJson(input)
  if ('problem' in read) return reported([...problems, { level: 'error', ...read.problem }])
  for (const d of read.duplicates) problems.push({ level: 'error', ...d })
  const data = read.value
  problems.push(...schemaProblems(data))
  const season = typeof data === 'object' && data !== null && 'season' in data ? data.season : undefined
  if (typeof season === 'string' && season !== name.replace(/\.json$/i, ''))
    problems.push({
      level: 'error',
      pointer: '/season',
      message: `is ${quote(season)} but the file is named ${oneLine(name)}; they must match`,
    })
  // The rules below walk the file's structure, so they run only on a file the schema accepts.
  if (!problems.some((p) => p.level === 'error')) problems.push(...ruleProblems(data as SeasonFile))
  return reported(problems, data as SeasonFile)
}

/** What `validateSeason` answers: the problems listed (capped), how many there were, and the season when it has no error. */
function reported(problems: Problem[], season?: SeasonFile) {
  const counts: ProblemCounts = { errors: 0, warnings: 0 }
  for (const p of problems) p.level === 'error' ? counts.errors++ : counts.warnings++
  const listed = capped(problems)
  return counts.errors || !season ? { problems: listed, counts } : { problems: listed, counts, season }
}

/** One row per variant, with defaults applied and the effective game mode. */
export function flatten(file: SeasonFile): CatalogRow[] {
  const rows: CatalogRow[] = []
  const cross = file.cross_mode_trading ?? false
  for (const sprite of file.sprites)
    for (const v of sprite.variants)
      rows.push({
        season: file.season,
        base_name: sprite.base_name,
        row_name: sprite.row_name,
        variant: v.variant,
        status: v.status,
        released_at: v.released_at ?? null,
        max_stack: v.max_stack ?? 1,
        rarity_weight: v.rarity_weight ?? null,
        confirmed: v.confirmed ?? false,
        game_mode: sprite.game_mode ?? file.game_mode,
        cross_mode_trading: cross,
        notes: v.notes ?? sprite.notes ?? null,
      })
  return rows
}
