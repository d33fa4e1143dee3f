// GET /api/admin/roster/export?unit=&q=&den=&dues=&health=&inactive_weeks=: the roster as CSV, one line per scout, for the unit's records.
import { rosterCsv } from '#server/roster/export.ts'
import { RosterFilterQuery } from '#server/roster/schemas.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('roster:write', 'Download the roster as CSV', {
  operationId: 'exportRoster',
  description:
    "One line per scout of an active household with this year's checklist, this program year's nights, service hours and miles, and the last day the scout came to an event; the filters narrow it as they do the roster. UTF-8 with a byte-order mark, so spreadsheets keep accented names; cells a spreadsheet would run start with a quote.",
  query: RosterFilterQuery,
  responses: ok({ media: 'text/csv' }, 'A CSV download', {
    404: 'No such unit',
    422: 'A dues or health value other than unpaid or missing',
  }),
  async handler({ db, query }) {
    const { filename, csv } = await rosterCsv(db, query)
    return csvDownload(filename, csv)
  },
})
