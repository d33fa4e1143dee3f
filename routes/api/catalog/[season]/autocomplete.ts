// GET /api/catalog/:season/autocomplete?q=: variants whose row or base name matches, for the bot's prompts.
import { t } from '../../../../server/schemas.ts'
import { catalogRows, seasonExists } from '../../../../server/catalog/queries.ts'
import { notFound } from '../../../../server/errors.ts'
import { defineRoute } from '../../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'public',
  summary: 'Autocomplete on row_name and base_name: prefix before substring, unconfirmed last',
  params: t.Object({ season: t.String({ maxLength: 20 }) }),
  query: t.Object({ q: t.String({ maxLength: 100 }), limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })) }),
  async handler({ db, params, query }) {
    if (!(await seasonExists(db, params.season))) throw notFound(`No season ${params.season}`)
    const q = query.q.trim().toLowerCase()
    const scored = []
    for (const row of await catalogRows(db, params.season, {})) {
      const names = [row.base_name.toLowerCase(), row.row_name.toLowerCase()]
      const rank = names.some((n) => n.startsWith(q)) ? 0 : names.some((n) => n.includes(q)) ? 1 : -1
      if (rank >= 0) scored.push({ row, rank })
    }
    // rarity_weight is display only: it never takes part in the order.
    scored.sort(
      (a, b) =>
        Number(b.row.confirmed) - Number(a.row.confirmed) ||
        a.rank - b.rank ||
        a.row.base_name.localeCompare(b.row.base_name) ||
        a.row.variant.localeCompare(b.row.variant),
    )
    return { season: params.season, q: query.q, matches: scored.slice(0, query.limit ?? 20).map((s) => s.row) }
  },
})
