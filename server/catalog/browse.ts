// The catalog a page at a time, for bots: a season in pages, one variant by its id, a search across seasons, and
// the changes since a bot last synced. Cursors are opaque; a page cursor names the load it was made from, and
// once that season (or, for a search, any season) has been reloaded it is refused with 409 so no page is mixed.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { conflict, notFound, unprocessable } from '../errors.ts'
import { Line, Nullable, OneOf, t } from '../schemas.ts'
import { GAME_MODES, STATUSES } from './schema.ts'
import { ROW_COLUMNS, Row, SeasonFilters, SeasonRows, seasonExists, seasonRows, served } from './queries.ts'
import { currentSeq, foldName } from './sync.ts'

const ROW_EXAMPLE = Row.examples[0]

const encode = (position: unknown[]) => Buffer.from(JSON.stringify(position)).toString('base64url')

/** The position a cursor holds, checked against the shape `isValid` expects; 422 for anything this API did not give. */
function decode<T extends unknown[]>(cursor: string, field: string, isValid: (p: unknown[]) => p is T): T {
  let position: unknown
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {}
  if (!Array.isArray(position) || !isValid(position)) throw unprocessable(`${field}: is not a cursor this API gave; start again without it`)
  return position
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v)
const reloaded = () =>
  conflict('The catalog was reloaded since this listing began; start again without a cursor (or sync with /api/catalog/changes)')

const pageSize = (max: number, fallback: number, what: string) =>
  t.Optional(
    t.Integer({ minimum: 1, maximum: max, description: `At most this many ${what} (${fallback} by default when paging)`, examples: [100] }),
  )
const Cursor = (description: string) => t.Optional(Line(400, { minLength: 1, description }))

export const SeasonQuery = t.Object({
  ...SeasonFilters.properties,
  limit: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 1000,
      description: 'Page size, 1-1000; with limit or cursor the answer is one page',
      examples: [500],
    }),
  ),
  cursor: Cursor('The next_cursor of the previous page'),
})

export const SeasonPage = t.Object(
  {
    ...SeasonRows.properties,
    next_cursor: t.Optional(Nullable(t.String({ description: 'When paging: the cursor of the next page, null on the last' }))),
  },
  {
    additionalProperties: false,
    examples: [
      { season: 'c6s3', variants: [ROW_EXAMPLE] },
      { season: 'c6s3', variants: [ROW_EXAMPLE], next_cursor: 'WyIyMDI2LTExLTIzVDA4OjAwOjAwLjAwMFoiLDUwMF0' },
    ],
  },
)

/** A season's rows: all of them as before without limit and cursor, else one page in file order. */
export async function seasonPage(db: Executor, season: string, query: typeof SeasonQuery.static) {
  if (query.limit === undefined && query.cursor === undefined) return seasonRows(db, season, query)
  if (!(await seasonExists(db, season))) throw notFound(`No season ${season}`)
  const file = await db
    .selectFrom('catalog_files')
    .select('loaded_at')
    .where('season', '=', season)
    .where('loaded_at', 'is not', null)
    .executeTakeFirst()
  const version = file?.loaded_at ?? ''
  const [madeAt, after] = query.cursor
    ? decode(query.cursor, 'cursor', (p): p is [string, number] => p.length === 2 && typeof p[0] === 'string' && isInt(p[1]))
    : [version, 0]
  if (madeAt !== version) throw reloaded()
  const limit = query.limit ?? 500
  const rows = await db
    .selectFrom('catalog_variants')
    .select([...ROW_COLUMNS, 'catalog_variants.id as position'])
    .where('season', '=', season)
    .where('catalog_variants.id', '>', after)
    .$if(!!query.status, (q) => q.where('status', '=', query.status!))
    .$if(!!query.game_mode, (q) => q.where('game_mode', '=', query.game_mode!))
    .$if(!!query.row_name, (q) => q.where('row_name', '=', query.row_name!))
    .orderBy('catalog_variants.id')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  return {
    season,
    variants: page.map(({ position, ...r }) => served(r)),
    next_cursor: rows.length > limit ? encode([version, page.at(-1)!.position]) : null,
  }
}

export const VariantParams = t.Object({ id: Line(40, { minLength: 1, description: 'A variant id', examples: [ROW_EXAMPLE.id] }) })

export async function variantById(db: Executor, id: string) {
  const row = await db.selectFrom('catalog_variants').select(ROW_COLUMNS).where('variant_id', '=', id).executeTakeFirst()
  if (!row) throw notFound(`No variant ${id} (it may have been removed: see /api/catalog/changes)`)
  return served(row)
}

export const SearchQuery = t.Object({
  q: t.Optional(
    Line(100, {
      description: 'Text in the base, row or variant name; case and accents ignored ("nandu" finds "Nandú")',
      examples: ['nandu'],
    }),
  ),
  season: t.Optional(Line(20, { description: 'Only this season', examples: ['c6s3'] })),
  status: t.Optional(OneOf(STATUSES, { description: 'Only this status', examples: ['released'] })),
  game_mode: t.Optional(OneOf(GAME_MODES, { description: 'Only this effective game mode', examples: ['br'] })),
  row_name: t.Optional(Line(200, { description: 'Only this row', examples: ['Birds'] })),
  limit: pageSize(500, 50, 'variants'),
  cursor: Cursor('The next_cursor of the previous page'),
})

export const SearchPage = t.Object(
  {
    matches: t.Array(Row, { description: 'In season order (c6s3 before c10s1), then file order' }),
    next_cursor: Nullable(t.String({ description: 'The cursor of the next page; null on the last' })),
  },
  { additionalProperties: false, examples: [{ matches: [ROW_EXAMPLE], next_cursor: null }] },
)

/** Variants of every season matching the filters, a page at a time in season order. */
export async function search(db: Executor, query: typeof SearchQuery.static) {
  const seq = await currentSeq(db)
  const [madeAt, chapter, seasonNo, id] = query.cursor
    ? decode(query.cursor, 'cursor', (p): p is [number, number, number, number] => p.length === 4 && p.every(isInt))
    : [seq, -1, -1, -1]
  if (madeAt !== seq) throw reloaded()
  const text = foldName(query.q?.trim() ?? '')
  const limit = query.limit ?? 50
  const rows = await db
    .selectFrom('catalog_variants')
    .select([...ROW_COLUMNS, 'catalog_variants.id as position', 'chapter', 'season_no'])
    .where(sql<boolean>`(chapter, season_no, catalog_variants.id) > (${chapter}, ${seasonNo}, ${id})`)
    .$if(!!text, (q) => q.where(sql<boolean>`instr(search_text, ${text}) > 0`))
    .$if(!!query.season, (q) => q.where('season', '=', query.season!))
    .$if(!!query.status, (q) => q.where('status', '=', query.status!))
    .$if(!!query.game_mode, (q) => q.where('game_mode', '=', query.game_mode!))
    .$if(!!query.row_name, (q) => q.where('row_name', '=', query.row_name!))
    .orderBy('chapter')
    .orderBy('season_no')
    .orderBy('catalog_variants.id')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    matches: page.map(({ position, chapter, season_no, ...r }) => served(r)),
    next_cursor: rows.length > limit && last ? encode([seq, last.chapter, last.season_no, last.position]) : null,
  }
}

export const ChangesQuery = t.Object({
  since: Cursor('The `next` of your last sync; without it every variant is listed as updated, from the start'),
  limit: pageSize(1000, 500, 'changes'),
})

export const Changes = t.Object(
  {
    changes: t.Array(
      t.Object(
        {
          id: t.String(),
          season: t.String(),
          change: OneOf(['updated', 'removed'] as const, { description: 'updated: added or changed, with its row; removed: gone' }),
          variant: Nullable(Row),
        },
        { additionalProperties: false },
      ),
      { description: 'In the order they happened; a variant changed twice appears once, at its latest change' },
    ),
    next: t.String({ description: 'Send it as `since` next time' }),
    more: t.Boolean({ description: 'More changes wait: ask again with `since` = next now' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        changes: [
          { id: ROW_EXAMPLE.id, season: 'c6s3', change: 'updated', variant: ROW_EXAMPLE },
          { id: 'c6s3-8ZtVb1oPq0Rw', season: 'c6s3', change: 'removed', variant: null },
        ],
        next: 'WzMsImM2czMtOFp0VmIxb1BxMFJ3Il0',
        more: false,
      },
    ],
  },
)

/** Everything that changed after the position `since` names, oldest first: rows updated and tombstones of removals. */
export async function changesSince(db: Executor, query: typeof ChangesQuery.static) {
  const [seq, afterId] = query.since
    ? decode(query.since, 'since', (p): p is [number, string] => p.length === 2 && isInt(p[0]) && typeof p[1] === 'string')
    : [0, '']
  const limit = query.limit ?? 500
  const after = sql<boolean>`(changed_seq, variant_id) > (${seq}, ${afterId})`
  const updated = await db
    .selectFrom('catalog_variants')
    .select([...ROW_COLUMNS, 'changed_seq as seq'])
    .where(after)
    .orderBy('changed_seq')
    .orderBy('variant_id')
    .limit(limit + 1)
    .execute()
  const removed = await db
    .selectFrom('catalog_removed')
    .select(['variant_id as id', 'season', 'removed_seq as seq'])
    .where(sql<boolean>`(removed_seq, variant_id) > (${seq}, ${afterId})`)
    .orderBy('removed_seq')
    .orderBy('variant_id')
    .limit(limit + 1)
    .execute()
  const merged = [
    ...updated.map(({ seq, ...r }) => ({ seq, id: r.id, season: r.season, change: 'updated' as const, variant: served(r) })),
    ...removed.map((r) => ({ ...r, change: 'removed' as const, variant: null })),
  ].sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const page = merged.slice(0, limit)
  const last = page.at(-1)
  return {
    changes: page.map(({ seq, ...c }) => c),
    next: last ? encode([last.seq, last.id]) : (query.since ?? encode([0, ''])),
    more: merged.length > limit,
  }
}
