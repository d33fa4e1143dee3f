// GET /api/admin/calendar/:uid/attendance.csv: who came, in the columns of Scoutbook's log files.
import { OccurrenceQuery } from '#server/attendance/log-schemas.ts'
import { attendanceCsv } from '#server/attendance/scoutbook.ts'
import { Uid } from '#server/calendar/schemas.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('calendar:write', 'Download the attendance for Scoutbook', {
  operationId: 'exportAttendance',
  description:
    'One line per attendee (scouts, then adults) for each log the event counts for (Camping with nights and days, Hiking with miles, Service with hours), in the columns of Scoutbook’s log files: BSA Member ID, First Name, Middle Name, Last Name, Log Type, Date (MM/DD/YYYY), Nights, Days, Miles, Hours, Frost Points, Location/Name, Notes. `date` names one meeting of a repeating event. UTF-8 with a byte-order mark; cells a spreadsheet would run start with a quote.',
  params: Uid,
  query: OccurrenceQuery,
  responses: ok({ media: 'text/csv' }, 'A CSV download', {
    403: { description: 'An event for a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'The calendar does not hold the event',
    422: 'A repeating event without the day of one of its meetings, or a day it does not happen on',
  }),
  async handler({ db, caller, params, query }) {
    const { filename, csv } = await attendanceCsv(db, caller, params.uid, query.date)
    return csvDownload(filename, csv)
  },
})
