// The catalog a page at a time, for bots: a season in pages, one variant by its id, a ranked search across seasons,
// and the changes since a bot last synced. Cursors and ETags come from the content alone (a row's place in its
// file, a match's rank and place; a hash of the answer), so a reload of an unchanged file or a restart keeps them;
// a cursor is bound to its season and filters, and used with others it is 422.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { notFound, unprocessable } from '../errors.ts'
import { decodeCursor, encodeCursor, nextLink, NextCursor, PAGE, PageQuery } from '../http/paging.ts'
import { Line, Nullable, OneOf, t } from '../schemas.ts'
import { FilterQuery, filtersOf, parseRfc3339, whereFilters } from './filters.ts'
import { searchText } from './fold.ts'
import { ROW_COLUMNS, Row, SeasonFilters, SeasonRows, seasonExists, seasonRows, served } from './queries.ts'
import { searchIndex } from './search-index.ts'
import { SearchPosition } from './search.ts'
import { currentSeq } from './sync.ts'
import { contentJson } from './http.ts'

const ROW_EXAMPLE = Row.examples[0]

/**
 * A paged answer as JSON, compressed as the client asks, with a strong ETag per coding that is a hash of its bytes (so
 * it moves only when the content does), 304 to a matching If-None-Match, and the `Link` to the next page.
 */
export function pagedJson(request: Request, body: object): Response | Promise<Response> {
  const next = (body as { next_cursor?: string | null }).next_cursor ?? null
  return contentJson(request, body, nextLink(request, next))
}

export const SeasonQuery = t.Object({ ...SeasonFilters.properties, ...PageQuery })

export const SeasonPage = t.Object(
  {
    ...SeasonRows.properties,
    next_cursor: t.Optional(NextCursor),
  },
  {
    additionalProperties: false,
    examples: [
      { season: 'c6s3', variants: [ROW_EXAMPLE] },
      { season: 'c6s3', variants: [ROW_EXAMPLE], next_cursor: 'eyJiIjoiM3ZYbkRRMmtIYSIsInAiOls0OTldfQ' },
    ],
  },
)

/** A season cursor: the place in its file of the last row given. */
const PlaceInFile = t.Tuple([t.Integer({ minimum: 0 })])

/** Whether a season answer is one page: with limit or cursor; without both the whole season, as before. */
export const isPaged = (query: { limit?: number; cursor?: string }) => query.limit !== undefined || query.cursor !== undefined

/** One page of a season's rows in file order, after the row the cursor names (its place in the file). */
export async function seasonPage(db: Executor, season: string, query: typeof SeasonQuery.static) {
  const filters = filtersOf(query)
  if (!isPaged(query)) return seasonRows(db, season, filters)
  const binding = { season, ...filters }
  const [after] = query.cursor ? decodeCursor('catalog-season', binding, query.cursor, PlaceInFile) : [-1]
  if (!(await seasonExists(db, season))) throw notFound(`No season ${season}`)
  const limit = query.limit ?? PAGE.default
  const rows = await whereFilters(
    db
      .selectFrom('catalog_variants')
      .select([...ROW_COLUMNS, 'ord'])
      .where('season', '=', season)
      .where('ord', '>', after as number),
    filters,
  )
    .orderBy('ord')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  return {
    season,
    variants: page.map(({ ord, ...r }) => served(r)),
    next_cursor: rows.length > limit ? encodeCursor('catalog-season', binding, [page.at(-1)!.ord]) : null,
  }
}

export const VariantParams = t.Object({ id: Line(40, { minLength: 1, description: 'A variant id', examples: [ROW_EXAMPLE.id] }) })

export async function variantById(db: Executor, id: string) {
  const row = await db.selectFrom('catalog_variants').select(ROW_COLUMNS).where('variant_id', '=', id).executeTakeFirst()
  if (!row) throw notFound(`No variant ${id} (it may have been removed: see /api/catalog/changes)`)
  return served(row)
}

/** At most this many ids in one `GET /api/catalog/variants?ids=`. */
export const IDS_MAX = 100

export const VariantsQuery = t.Object({
  ids: t.Array(Line(40, { minLength: 1 }), {
    minItems: 1,
    maxItems: IDS_MAX,
    description: `Up to ${IDS_MAX} variant ids, comma-separated or the parameter repeated`,
    examples: [[ROW_EXAMPLE.id, 'c6s3-8ZtVb1oPq0Rw']],
  }),
})

export const Variants = t.Object(
  {
    variants: t.Array(Row, { description: 'The variants found, in the order asked (each once)' }),
    missing: t.Array(t.String(), { description: 'The ids asked for that name no variant (now): removed, or never one' }),
  },
  { additionalProperties: false, examples: [{ variants: [ROW_EXAMPLE], missing: ['c6s3-8ZtVb1oPq0Rw'] }] },
)

/** Several variants by id in one answer; the ids that name none listed in `missing`. */
export async function variantsByIds(db: Executor, ids: string[]) {
  const asked = [...new Set(ids)]
  const rows = await db.selectFrom('catalog_variants').select(ROW_COLUMNS).where('variant_id', 'in', asked).execute()
  const byId = new Map(rows.map((r) => [r.id, served(r)]))
  return { variants: asked.flatMap((id) => byId.get(id) ?? []), missing: asked.filter((id) => !byId.has(id)) }
}

export const MATCH_MODES = ['full', 'starts', 'ends', 'contains'] as const

export const SearchQuery = t.Object({
  q: t.Optional(
    Line(100, {
      description:
        'Words in the base, row or variant name, in any order; case, accents and letters such as ø, ł, æ, ß folded ("lodz" finds "Łódź"); one typo forgiven in words of 5 letters or more; beside other words, a word of 1 or 2 letters matches the start of a word ("golden f")',
      examples: ['golden fox'],
    }),
  ),
  match: t.Optional(
    OneOf(MATCH_MODES, {
      description:
        'Instead of the ranked search: the base name is `q` (full), starts with it (starts), ends with it (ends) or holds it (contains), after folding',
      examples: ['starts'],
    }),
  ),
  season: t.Optional(
    t.Array(Line(20), {
      minItems: 1,
      description: 'Only these seasons: several comma-separated or the parameter repeated',
      examples: [['c6s3']],
    }),
  ),
  ...FilterQuery,
  ...PageQuery,
})

export const SearchPage = t.Object(
  {
    matches: t.Array(Row, {
      description:
        'Best first: a base or variant name that is the query, starts with it, has a word starting with it, holds it (or every word of the query so); then the same for the row name; then names with one typo, then row names with one. Confirmed before unconfirmed within each, then in season and file order. Without `q`: season and file order',
    }),
    next_cursor: NextCursor,
  },
  { additionalProperties: false, examples: [{ matches: [ROW_EXAMPLE], next_cursor: null }] },
)

// Built and asked in the search worker (search-index.ts); re-exported for the loader's tests.
export { searchIndex, searchIndexHeld } from './search-index.ts'

/** One page of matches across seasons, after the match the cursor names (its rank and place). */
export async function search(db: Executor, version: number, query: typeof SearchQuery.static) {
  const { limit = PAGE.default, cursor, q, match, season } = query
  const filters = { ...filtersOf(query), season: season && [...new Set(season)].sort() }
  const binding = { ...filters, q: searchText(q ?? ''), match }
  const after = cursor ? decodeCursor('catalog-search', binding, cursor, SearchPosition) : null
  const found = await (await searchIndex(db, version)).search(q ?? '', { match, filters, after, limit })
  return { matches: found.rows, next_cursor: found.next ? encodeCursor('catalog-search', binding, found.next) : null }
}

const SINCE_FORMS = 'the `next` of your last sync, or an RFC 3339 date-time such as 2026-11-23T08:00:00Z'

export const ChangesQuery = t.Object({
  since: t.Optional(
    Line(512, {
      minLength: 1,
      description: `Where to start: ${SINCE_FORMS}. Without it (and without cursor) every variant is listed as updated, from the start`,
      examples: ['2026-11-23T08:00:00Z'],
    }),
  ),
  limit: PageQuery.limit,
  cursor: t.Optional(
    Line(512, {
      minLength: 1,
      description: 'The `next_cursor` of the previous page (the same token as `next`)',
      examples: ['WzMsImM2czMtOFp0VmIxb1BxMFJ3Il0'],
    }),
  ),
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
    next: t.String({ description: 'Send it as `since` next time (older form of paging and syncing)' }),
    more: t.Boolean({ description: 'More changes wait: ask again with `cursor` = next_cursor (older form: `since` = next) now' }),
    next_cursor: NextCursor,
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
        next_cursor: null,
      },
    ],
  },
)

const decodeToken = (field: string, token: string): [number, string] => {
  let p: unknown
  try {
    p = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
  } catch {}
  if (Array.isArray(p) && p.length === 2 && Number.isSafeInteger(p[0]) && typeof p[1] === 'string') return [p[0], p[1]]
  throw unprocessable(`${field}: is neither ${SINCE_FORMS}`, 'cursor_invalid', field)
}
const encodeToken = (position: [number, string]) => Buffer.from(JSON.stringify(position)).toString('base64url')
/** After every variant of a load: ids sort below this (SQLite compares text as UTF-8 bytes). */
const AFTER_EVERY_ID = '\uffff'

/**
 * Everything that changed after a position (a token) or a moment (RFC 3339), oldest first: rows updated and
 * tombstones of removals.
 */
export async function changesSince(db: Executor, query: typeof ChangesQuery.static) {
  const from = query.cursor ?? query.since
  let [seq, afterId]: [number, string] = [0, '']
  let at: string | null = null
  if (query.cursor !== undefined) [seq, afterId] = decodeToken('cursor', query.cursor)
  else if (query.since !== undefined && /^\d{4}-/.test(query.since)) {
    const ms = parseRfc3339(query.since)
    if (ms === null) throw unprocessable('since: is not a real RFC 3339 date-time', 'validation_failed', 'since')
    at = new Date(ms).toISOString()
  } else if (query.since !== undefined) [seq, afterId] = decodeToken('since', query.since)
  const limit = query.limit ?? PAGE.default
  const after = sql<boolean>`(changed_seq, variant_id) > (${seq}, ${afterId})`
  const updated = await db
    .selectFrom('catalog_variants')
    .select([...ROW_COLUMNS, 'changed_seq as seq'])
    .where(after)
    .$if(at !== null, (q) => q.where('changed_at', '>', at!))
    .orderBy('changed_seq')
    .orderBy('variant_id')
    .limit(limit + 1)
    .execute()
  const removed = await db
    .selectFrom('catalog_removed')
    .select(['variant_id as id', 'season', 'removed_seq as seq'])
    .where(sql<boolean>`(removed_seq, variant_id) > (${seq}, ${afterId})`)
    .$if(at !== null, (q) => q.where('removed_at', '>', at!))
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
  // Nothing (more) since a moment: the next sync starts after the latest load
  const next = last
    ? encodeToken([last.seq, last.id])
    : at !== null
      ? encodeToken([await currentSeq(db), AFTER_EVERY_ID])
      : (from ?? encodeToken([0, '']))
  const more = merged.length > limit
  return { changes: page.map(({ seq, ...c }) => c), next, more, next_cursor: more ? next : null }
}
