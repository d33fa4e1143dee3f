// GET /api/admin/roster/export?unit=: the roster as CSV, one line per scout, for the unit's records.
import { rosterCsv } from '#server/roster/queries.ts'
import { RosterQuery } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'roster:write',
  summary: "The roster as CSV, one line per scout with this year's checklist (`unit` narrows it)",
  query: RosterQuery,
  responses: {
    200: { description: 'A CSV download; cells that a spreadsheet would run as a formula start with a quote', media: 'text/csv' },
    404: 'No such unit',
  },
  async handler({ db, query }) {
    const { filename, csv } = await rosterCsv(db, query.unit)
    return new Response(csv, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` },
    })
  },
})
