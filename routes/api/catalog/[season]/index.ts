// GET /api/catalog/:season: the season's flattened rows, one per variant, optionally filtered.
import { t } from '../../../../server/schemas.ts'
import { cachedJson } from '../../../../server/catalog/http.ts'
import { GAME_MODES, STATUSES } from '../../../../server/catalog/schema.ts'
import { notFound } from '../../../../server/errors.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { catalogRows, seasonExists } from '../../../../server/catalog/queries.ts'

export const GET = defineRoute({
  auth: 'public',
  summary: "A season's flattened variants (filters: status, game_mode, row_name)",
  params: t.Object({ season: t.String({ maxLength: 20 }) }),
  query: t.Object({
    status: t.Optional(t.Union(STATUSES.map((s) => t.Literal(s)))),
    game_mode: t.Optional(t.Union(GAME_MODES.map((m) => t.Literal(m)))),
    row_name: t.Optional(t.String({ maxLength: 200 })),
  }),
  async handler({ db, params, query, request, catalog }) {
    const key = JSON.stringify(['season', params.season, query.status ?? null, query.game_mode ?? null, query.row_name ?? null])
    // The existence check runs only when the answer is not cached yet, so a 304 touches no table.
    return cachedJson(request, key, catalog?.version ?? 0, async () => {
      if (!(await seasonExists(db, params.season))) throw notFound(`No season ${params.season}`)
      return { season: params.season, variants: await catalogRows(db, params.season, query) }
    })
  },
})
