// Validates one season file: the JSON Schema rules, then the rules a schema cannot express; and flattens it.
import type { CatalogVariant } from '../db/database.ts'
import type { Static } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import path from 'node:path'
import { Season } from './schema.ts'

export type SeasonFile = Static<typeof Season>

export interface Problem {
  level: 'error' | 'warning'
  pointer: string
  message: string
}

/** A flattened row: a stored variant row without its id, with its flags as booleans. */
export type CatalogRow = Omit<CatalogVariant, 'id' | 'confirmed' | 'cross_mode_trading'> & {
  confirmed: boolean
  cross_mode_trading: boolean
}

const compiled = TypeCompiler.Compile(Season)
const MAX_SCHEMA_ERRORS = 200

function schemaMessage(error: { message: string; schema: any }): string {
  const s = error.schema
  // A missing field is reported with the field's own schema; say it is missing, not what it should look like.
  if (error.message === 'Expected required property') return 'is required but missing'
  if (Array.isArray(s.enum)) return `must be one of ${s.enum.join(', ')}`
  if (Array.isArray(s.anyOf) && s.anyOf.every((b: any) => typeof b.const === 'string'))
    return `must be one of ${s.anyOf.map((b: any) => b.const).join(', ')}`
  if (s.format === 'date') return 'must be a real calendar date written YYYY-MM-DD'
  if (s.pattern === '^c[0-9]+s[0-9]+$') return 'must look like c6s3 (c<chapter>s<season>)'
  if (error.message === 'Unexpected property') return 'is not a known property (unknown properties are refused)'
  return error.message.charAt(0).toLowerCase() + error.message.slice(1)
}

/** Every problem of a season file; `season` is set when the file has no errors (warnings allowed). */
export function validateSeason(fileName: string, text: string): { problems: Problem[]; season?: SeasonFile } {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return { problems: [{ level: 'error', pointer: '', message: `not valid JSON: ${(error as Error).message}` }] }
  }
  const problems: Problem[] = []
  const seen = new Set<string>()
  if (!compiled.Check(data)) {
    for (const e of compiled.Errors(data)) {
      const message = schemaMessage(e)
      const key = `${e.path}\0${message}`
      if (seen.has(key)) continue
      seen.add(key)
      problems.push({ level: 'error', pointer: e.path, message })
      if (problems.length >= MAX_SCHEMA_ERRORS) break
    }
  }
  const stem = path.basename(fileName).replace(/\.json$/, '')
  const season = (data as any)?.season
  if (typeof season === 'string' && season !== stem)
    problems.push({ level: 'error', pointer: '/season', message: `is "${season}" but the file is named ${stem}.json; they must match` })
  if (problems.some((p) => p.level === 'error')) return { problems }

  const file = data as SeasonFile
  const baseNames = new Map<string, number>()
  file.sprites.forEach((sprite, i) => {
    const first = baseNames.get(sprite.base_name)
    if (first !== undefined)
      problems.push({
        level: 'error',
        pointer: `/sprites/${i}/base_name`,
        message: `"${sprite.base_name}" is already used by /sprites/${first}`,
      })
    else baseNames.set(sprite.base_name, i)
    const variants = new Map<string, number>()
    sprite.variants.forEach((v, j) => {
      const at = `/sprites/${i}/variants/${j}`
      const earlier = variants.get(v.variant)
      if (earlier !== undefined)
        problems.push({
          level: 'error',
          pointer: `${at}/variant`,
          message: `"${v.variant}" is already used by ${`/sprites/${i}/variants/${earlier}`}`,
        })
      else variants.set(v.variant, j)
      if (v.status === 'released' && !v.released_at)
        problems.push({ level: 'warning', pointer: at, message: 'is released but has no released_at' })
    })
  })
  return problems.some((p) => p.level === 'error') ? { problems } : { problems, season: file }
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
