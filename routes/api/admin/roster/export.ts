// GET /api/admin/roster/export?unit=: the roster as CSV, one line per scout, for the unit's records.
import { rosterCsv } from '#server/roster/queries.ts'
import { RosterQuery } from '#server/roster/schemas.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('roster:write', 'Download the roster as CSV', {
  description: "One line per scout with this year's checklist; `unit` narrows it. Cells a spreadsheet would run start with a quote.",
  query: RosterQuery,
  responses: ok({ media: 'text/csv' }, 'A CSV download', { 404: 'No such unit' }),
  async handler({ db, query }) {
    const { filename, csv } = await rosterCsv(db, query.unit)
    return csvDownload(filename, csv)
  },
})
