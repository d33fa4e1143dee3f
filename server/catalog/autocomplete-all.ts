// Autocomplete across every season (GET /api/catalog/autocomplete), for a slash command whose choice list holds at
// most 25: each season's own index ranks its matches, and the seasons' best are merged by class, the newest season
// first on ties, then each season's own order.
import type { Executor } from '../db/database.ts'
import { HttpError } from '../errors.ts'
import { Line, t } from '../schemas.ts'
import { autocompleteIndex, fold } from './autocomplete.ts'
import { cachedBody } from './http.ts'
import { Row, seasons } from './queries.ts'

/** A Discord choice list holds at most this many. */
export const CHOICES_MAX = 25

export const AllAutocompleteQuery = t.Object({
  q: Line(100, { description: 'Text to match in base and row names', examples: ['owl'] }),
  limit: t.Optional(
    t.Integer({ minimum: 1, maximum: CHOICES_MAX, description: `At most this many, ${CHOICES_MAX} by default`, examples: [10] }),
  ),
})

export const AllMatches = t.Object(
  {
    q: t.String({ description: 'The query as matched (folded)' }),
    matches: t.Array(Row, {
      description:
        'Base-name matches before row-name ones; within each confirmed before unconfirmed, then names starting with q before those holding it; then the newest season first',
    }),
  },
  { additionalProperties: false, examples: [{ q: 'nan', matches: [Row.examples[0]] }] },
)

const encoder = new TextEncoder()
const decoder = new TextDecoder()
/** Per database, the seasons newest first at a catalog version: counted once, not on every new query. */
const seasonLists = new WeakMap<Executor, { version: number; seasons: Promise<string[]> }>()

function newestFirst(db: Executor, version: number): Promise<string[]> {
  const held = seasonLists.get(db)
  if (held && held.version >= version) return held.seasons
  const list = seasons(db).then((found) => found.seasons.map((s) => s.season).reverse())
  list.catch(() => seasonLists.get(db)?.seasons === list && seasonLists.delete(db))
  seasonLists.set(db, { version, seasons: list })
  return list
}

const databaseIds = new WeakMap<Executor, number>()
let databases = 0

export function allAutocompleteResponse(
  request: Request,
  db: Executor,
  version: () => number,
  versionOf: (season: string) => number,
  query: { q: string; limit?: number },
): Response | Promise<Response> {
  const q = fold(query.q)
  const limit = query.limit ?? CHOICES_MAX
  let database = databaseIds.get(db)
  if (database === undefined) databaseIds.set(db, (database = ++databases))
  return cachedBody(request, JSON.stringify(['autocomplete-all', database, q, limit]), version, async (at) => {
    const found: { cls: number; age: number; pos: number; row: Uint8Array }[] = []
    for (const [age, season] of (await newestFirst(db, at)).entries()) {
      // A season removed since the list was read is left out rather than failing the answer.
      const index = await autocompleteIndex(db, season, versionOf(season)).catch((e) => {
        if (e instanceof HttpError && e.status === 404) return null
        throw e
      })
      if (!index) continue
      for (const [pos, cls] of index.ranked(q, limit)) found.push({ cls, age, pos, row: index.row(pos) })
    }
    found.sort((a, b) => a.cls - b.cls || a.age - b.age || a.pos - b.pos)
    const rows = found.slice(0, limit).map((f) => decoder.decode(f.row))
    return encoder.encode(`{"q":${JSON.stringify(q)},"matches":[${rows.join(',')}]}`)
  })
}
