// GET /api/catalog: the seasons with their counts, for the trading bot.
import { sql } from 'kysely'
import { cachedJson } from '../../../server/catalog/http.ts'
import { defineRoute } from '../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'public',
  summary: 'Seasons with counts of variants, released, hidden, unreleased and confirmed',
  handler: ({ db, request, catalog }) =>
    cachedJson(request, 'seasons', catalog?.version ?? 0, async () => {
      const rows = await db
        .selectFrom('catalog_variants')
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
      // Natural order: c6s3 before c10s1.
      const key = (s: string) => s.slice(1).split('s').map(Number)
      rows.sort((a, b) => key(a.season)[0] - key(b.season)[0] || key(a.season)[1] - key(b.season)[1])
      return { seasons: rows }
    }),
})
