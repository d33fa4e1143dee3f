// The catalog a page at a time, for bots: a season in pages, one variant by its id, a ranked search across seasons,
// and the changes since a bot last synced. Cursors and ETags come from the content alone (a row's place in its
// file, a match's rank and place; a hash of the answer), so a reload of an unchanged file or a restart keeps them;
// a cursor is bound to its season and filters, and used with others it is 422.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { notFound, unprocessable } from '../errors.ts'
import { decodeCursor, encodeCursor, nextLink, NextCursor, PAGE, PageQuery } from '../http/paging.ts'
import { noneMatch } from '../http/versions.ts'
import { Line, Nullable, OneOf, t } from '../schemas.ts'
import { searchText } from './fold.ts'
import { GAME_MODES, STATUSES } from './schema.ts'
import { ROW_COLUMNS, Row, SeasonFilters, SeasonRows, seasonExists, seasonRows, served } from './queries.ts'
import { searchIndex } from './search-index.ts'
import { SearchPosition } from './search.ts'
import { currentSeq } from './sync.ts'

const ROW_EXAMPLE = Row.examples[0]

/**
 * A paged answer as JSON with a strong ETag that is a hash of its bytes (so it moves only when the content does),
 * 304 to a matching If-None-Match, and the `Link` to the next page.
 */
export function pagedJson(request: Request, body: object): Response {
  const text = JSON.stringify(body)
  const etag = `"${new Bun.CryptoHasher('sha256').update(text).digest('base64url').slice(0, 32)}"`
  const next = (body as { next_cursor?: string | null }).next_cursor ?? null
  const headers = { etag, 'cache-control': 'no-cache', ...nextLink(request, next) }
  const match = request.headers.get('if-none-match')
  if (match !== null && noneMatch(match, etag)) return new Response(null, { status: 304, headers })
  return new Response(text, { headers: { 'content-type': 'application/json', ...headers } })
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

const seasonBinding = (season: string, q: typeof SeasonQuery.static) => ({
  season,
  status: q.status,
  game_mode: q.game_mode,
  row_name: q.row_name === undefined ? undefined : searchText(q.row_name),
})

/** A season cursor: the place in its file of the last row given. */
const PlaceInFile = t.Tuple([t.Integer({ minimum: 0 })])

/** Whether a season answer is one page: with limit or cursor; without both the whole season, as before. */
export const isPaged = (query: { limit?: number; cursor?: string }) => query.limit !== undefined || query.cursor !== undefined

/** One page of a season's rows in file order, after the row the cursor names (its place in the file). */
export async function seasonPage(db: Executor, season: string, query: typeof SeasonQuery.static) {
  if (!isPaged(query)) return seasonRows(db, season, query)
  const binding = seasonBinding(season, query)
  const [after] = query.cursor ? decodeCursor('catalog-season', binding, query.cursor, PlaceInFile) : [-1]
  if (!(await seasonExists(db, season))) throw notFound(`No season ${season}`)
  const limit = query.limit ?? PAGE.default
  const rows = await db
    .selectFrom('catalog_variants')
    .select([...ROW_COLUMNS, 'ord'])
    .where('season', '=', season)
    .where('ord', '>', after as number)
    .$if(!!query.status, (q) => q.where('status', '=', query.status!))
    .$if(!!query.game_mode, (q) => q.where('game_mode', '=', query.game_mode!))
    .$if(binding.row_name !== undefined, (q) => q.where('row_key', '=', binding.row_name!))
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

export const MATCH_MODES = ['full', 'starts', 'contains'] as const

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
        'Instead of the ranked search: the base name is `q` (full), starts with it (starts) or holds it (contains), after folding',
      examples: ['starts'],
    }),
  ),
  season: t.Optional(Line(20, { description: 'Only this season', examples: ['c6s3'] })),
  status: t.Optional(OneOf(STATUSES, { description: 'Only this status', examples: ['released'] })),
  game_mode: t.Optional(OneOf(GAME_MODES, { description: 'Only this effective game mode', examples: ['br'] })),
  row_name: t.Optional(Line(200, { description: 'Only this row, ignoring case and accents as `q` does', examples: ['birds'] })),
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
  const { limit = PAGE.default, cursor, ...filters } = query
  const binding = { ...filters, q: searchText(filters.q ?? ''), row_name: filters.row_name && searchText(filters.row_name) }
  const after = cursor ? decodeCursor('catalog-search', binding, cursor, SearchPosition) : null
  const found = await (
    await searchIndex(db, version)
  ).search(query.q ?? '', {
    match: query.match,
    filters,
    after,
    limit,
  })
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

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/

/** Milliseconds of an RFC 3339 date-time, read strictly: an impossible date or time (2027-02-30, 24:00) is null. */
export function parseRfc3339(value: string): number | null {
  const m = RFC3339.exec(value)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number)
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return null
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null
  return Date.parse(value.toUpperCase())
}

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
