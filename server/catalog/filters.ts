// The filters every catalog list takes (a season's rows, search): several statuses or game modes at once (sent
// comma-separated or repeated), one row, confirmed or not, and added since a moment. Read once into a normal form,
// so a cursor binds the same filters however they were spelt, then applied in SQL or to a row in memory.
import { type SelectQueryBuilder } from 'kysely'
import type { Database } from '../db/database.ts'
import { unprocessable } from '../errors.ts'
import { Line, OneOf, t } from '../schemas.ts'
import { searchText } from './fold.ts'
import { GAME_MODES, STATUSES } from './schema.ts'

const SEVERAL = 'several comma-separated (`released,hidden`) or the parameter repeated'

export const FilterQuery = {
  status: t.Optional(
    t.Array(OneOf(STATUSES), {
      minItems: 1,
      description: `Only rows with one of these statuses: ${SEVERAL}`,
      examples: [['released', 'hidden']],
    }),
  ),
  game_mode: t.Optional(
    t.Array(OneOf(GAME_MODES), {
      minItems: 1,
      description: `Only rows with one of these effective game modes: ${SEVERAL}`,
      examples: [['br']],
    }),
  ),
  row_name: t.Optional(Line(200, { description: 'Only this row, ignoring case and accents', examples: ['Birds'] })),
  confirmed: t.Optional(t.Boolean({ description: 'Only confirmed (`true`) or only unconfirmed (`false`) variants', examples: [true] })),
  added_since: t.Optional(
    Line(40, {
      description: 'Only variants the catalog first saw after this RFC 3339 date-time (their `added_at` is later)',
      examples: ['2026-11-23T08:00:00Z'],
    }),
  ),
}

export interface Filters {
  status?: (typeof STATUSES)[number][]
  game_mode?: (typeof GAME_MODES)[number][]
  /** Folded as names are for matching. */
  row_name?: string
  confirmed?: boolean
  /** As `added_at` is stored: an ISO date-time in UTC with milliseconds. */
  added_since?: string
}

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

const normal = <V extends string>(values: V[] | undefined) => (values ? [...new Set(values)].sort() : undefined)

/** The filters of a query in their normal form; 422 for an added_since that is not a real RFC 3339 date-time. */
export function filtersOf(query: { [K in keyof typeof FilterQuery]?: (typeof FilterQuery)[K]['static'] }): Filters {
  let added_since: string | undefined
  if (query.added_since !== undefined) {
    const ms = parseRfc3339(query.added_since)
    if (ms === null)
      throw unprocessable('added_since: is not an RFC 3339 date-time such as 2026-11-23T08:00:00Z', 'validation_failed', 'added_since')
    added_since = new Date(ms).toISOString()
  }
  return {
    status: normal(query.status),
    game_mode: normal(query.game_mode),
    row_name: query.row_name === undefined ? undefined : searchText(query.row_name),
    confirmed: query.confirmed,
    added_since,
  }
}

/** Narrows a query of catalog_variants to the rows passing `f`. */
export function whereFilters<O>(q: SelectQueryBuilder<Database, 'catalog_variants', O>, f: Filters) {
  return q
    .$if(!!f.status, (q) => q.where('status', 'in', f.status!))
    .$if(!!f.game_mode, (q) => q.where('game_mode', 'in', f.game_mode!))
    .$if(f.row_name !== undefined, (q) => q.where('row_key', '=', f.row_name!))
    .$if(f.confirmed !== undefined, (q) => q.where('confirmed', '=', f.confirmed ? 1 : 0))
    .$if(f.added_since !== undefined, (q) => q.where('added_at', '>', f.added_since!))
}

/** Whether a row passes `f` (but for row_name, which search compares as a name id); null when `f` lets every row by. */
export function rowTest(
  f: Filters & { season?: string[] },
): ((r: { season: string; status: string; game_mode: string; confirmed: boolean; added_at?: string }) => boolean) | null {
  const { season, status, game_mode, confirmed, added_since } = f
  if (!season && !status && !game_mode && confirmed === undefined && added_since === undefined) return null
  return (r) =>
    (!season || season.includes(r.season)) &&
    (!status || (status as string[]).includes(r.status)) &&
    (!game_mode || (game_mode as string[]).includes(r.game_mode)) &&
    (confirmed === undefined || r.confirmed === confirmed) &&
    (added_since === undefined || (r.added_at ?? '') > added_since)
}
