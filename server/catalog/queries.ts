// The catalog as the bot reads it: seasons with their counts, a season's flattened rows, autocomplete; and the
// schemas of those answers.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { Line, Nullable, OneOf, t } from '../schemas.ts'
import { GAME_MODES, STATUSES } from './schema.ts'
import { FilterQuery, type Filters, whereFilters } from './filters.ts'
import type { CatalogRow } from './validate.ts'

const ROW_EXAMPLE = {
  id: 'c6s3-Xq3v9Lk2ZpQe',
  season: 'c6s3',
  base_name: 'Nandú',
  row_name: 'Birds',
  variant: 'Default',
  status: 'released',
  released_at: '2026-09-01',
  max_stack: 5,
  rarity_weight: 0.2,
  confirmed: true,
  game_mode: 'br',
  cross_mode_trading: true,
  notes: null,
  added_at: '2026-09-01T08:00:00.000Z',
  changed_at: '2026-09-14T17:30:00.000Z',
}

export const Row = t.Object(
  {
    id: t.String({ description: 'The variant’s id: stable while its season, base_name and variant stay the same' }),
    season: t.String(),
    base_name: t.String(),
    row_name: t.String(),
    variant: t.String(),
    status: OneOf(STATUSES),
    released_at: Nullable(t.String({ format: 'date' })),
    max_stack: t.Integer(),
    rarity_weight: Nullable(t.Number({ description: 'Display and analytics only; never used for matching or order' })),
    confirmed: t.Boolean(),
    game_mode: OneOf(GAME_MODES, { description: "The effective game mode: the sprite's, else the season's" }),
    cross_mode_trading: t.Boolean(),
    notes: Nullable(t.String({ description: "The variant's notes, else its sprite's" })),
    added_at: t.String({
      format: 'date-time',
      description: 'When the catalog first saw this variant (a variant removed and added again may get a new one)',
    }),
    changed_at: t.String({
      format: 'date-time',
      description: 'When what this row shows last changed; a reload of an unchanged or only reformatted file keeps it',
    }),
  },
  { $id: 'CatalogRow', additionalProperties: false, examples: [ROW_EXAMPLE] },
)

export const SeasonParams = t.Object({ season: Line(20, { description: 'A season name such as c6s3', examples: ['c6s3'] }) })

export const Seasons = t.Object(
  {
    seasons: t.Array(
      t.Object(
        {
          season: t.String(),
          variants: t.Integer(),
          released: t.Integer(),
          hidden: t.Integer(),
          unreleased: t.Integer(),
          confirmed: t.Integer(),
        },
        { additionalProperties: false },
      ),
      { description: 'In natural order: c6s3 before c10s1' },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ seasons: [{ season: 'c6s3', variants: 120, released: 100, hidden: 5, unreleased: 15, confirmed: 90 }] }],
  },
)

export const SeasonFilters = t.Object(FilterQuery)

export const SeasonRows = t.Object(
  { season: t.String(), variants: t.Array(Row, { description: 'One per variant, in file order' }) },
  { additionalProperties: false, examples: [{ season: 'c6s3', variants: [ROW_EXAMPLE] }] },
)

export const AutocompleteQuery = t.Object({
  q: Line(100, { description: 'Text to match in row and base names', examples: ['nan'] }),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, description: 'At most this many, 20 by default', examples: [10] })),
})

export const Matches = t.Object(
  {
    season: t.String(),
    q: t.String(),
    matches: t.Array(Row, {
      description: 'Base-name matches before row-name ones; confirmed first within each, then prefix matches before others, then by name',
    }),
  },
  { additionalProperties: false, examples: [{ season: 'c6s3', q: 'nan', matches: [ROW_EXAMPLE] }] },
)

/** Each season's counts, in chapter and season order; with `only`, that season's alone (through the season index). */
export async function seasons(db: Executor, only?: string) {
  const rows = await db
    .selectFrom('catalog_variants')
    .$if(only !== undefined, (q) => q.where('season', '=', only!))
    .select([
      'season',
      sql<number>`count(*)`.as('variants'),
      sql<number>`sum(status = 'released')`.as('released'),
      sql<number>`sum(status = 'hidden')`.as('hidden'),
      sql<number>`sum(status = 'unreleased')`.as('unreleased'),
      sql<number>`sum(confirmed)`.as('confirmed'),
    ])
    .groupBy('season')
    .execute()
  const key = (s: string) => s.slice(1).split('s').map(Number)
  rows.sort((a, b) => key(a.season)[0] - key(b.season)[0] || key(a.season)[1] - key(b.season)[1])
  return { seasons: rows }
}

export async function seasonExists(db: Executor, season: string): Promise<boolean> {
  return !!(await db.selectFrom('catalog_variants').select('id').where('season', '=', season).limit(1).executeTakeFirst())
}

/** A variant's fields as the bot reads them, besides its id. */
export const ROW_FIELDS = [
  'season',
  'base_name',
  'row_name',
  'variant',
  'status',
  'released_at',
  'max_stack',
  'rarity_weight',
  'confirmed',
  'game_mode',
  'cross_mode_trading',
  'notes',
] as const

/** The columns of a row as the bot reads it. */
export const ROW_COLUMNS = ['variant_id as id', ...ROW_FIELDS, 'added_at', 'changed_at'] as const

/** A stored row as the bot reads it (SQLite keeps booleans as 0 and 1). */
export const served = <R extends { confirmed: number; cross_mode_trading: number }>(r: R) => ({
  ...r,
  confirmed: r.confirmed === 1,
  cross_mode_trading: r.cross_mode_trading === 1,
})

export async function catalogRows(
  db: Executor,
  season: string,
  f: Filters,
): Promise<(CatalogRow & { id: string; added_at: string; changed_at: string })[]> {
  const rows = await whereFilters(db.selectFrom('catalog_variants').select(ROW_COLUMNS).where('season', '=', season), f)
    .orderBy('ord')
    .execute()
  return rows.map(served)
}

/** A season's rows, filtered; 404 for a season that is not served. */
export async function seasonRows(db: Executor, season: string, filters: Filters) {
  if (!(await seasonExists(db, season))) throw notFound(`No season ${season}`)
  return { season, variants: await catalogRows(db, season, filters) }
}
