// GET /api/admin/calendar/:uid/roster/export: the trip roster as CSV.
import { Uid } from '#server/calendar/schemas.ts'
import { tripRosterCsv } from '#server/calendar/trip-roster.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('calendar:write', 'Download the trip roster as CSV', {
  operationId: 'exportTripRoster',
  description: 'One line per scout named (per household when the event counts scouts only), waitlist and maybes last.',
  params: Uid,
  responses: ok({ media: 'text/csv' }, 'A CSV download', {
    403: { description: 'An event for a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'The event never asked for replies',
  }),
  async handler({ db, caller, params }) {
    const { filename, csv } = await tripRosterCsv(db, caller, params.uid)
    return csvDownload(filename, csv)
  },
})
