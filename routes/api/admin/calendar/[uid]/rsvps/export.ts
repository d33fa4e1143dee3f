// GET /api/admin/calendar/:uid/rsvps/export: the replies to an event as CSV, for the leader who plans it.
import { repliesCsv } from '#server/calendar/rsvp.ts'
import { Uid } from '#server/calendar/schemas.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('calendar:write', 'Download the replies as CSV', {
  operationId: 'exportReplies',
  description: 'One line per household, then a total line per answer. Cells a spreadsheet would run start with a quote.',
  params: Uid,
  responses: ok({ media: 'text/csv' }, 'A CSV download', {
    403: { description: 'An event for a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'The event never asked for replies',
  }),
  async handler({ db, caller, params }) {
    const { filename, csv } = await repliesCsv(db, caller, params.uid)
    return csvDownload(filename, csv)
  },
})
