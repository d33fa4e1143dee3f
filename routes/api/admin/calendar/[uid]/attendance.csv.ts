// GET /api/admin/calendar/:uid/attendance.csv: who came, in the columns of Scoutbook's log files.
import { AttendanceKey } from '#server/attendance/schemas.ts'
import { attendanceCsv } from '#server/attendance/scoutbook.ts'
import { csvDownload } from '#server/csv.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('calendar:write', 'Download the attendance for Scoutbook', {
  operationId: 'exportAttendance',
  description:
    'One line per attendee (scouts, then adults) for each log the event counts for (Camping with nights and days, Hiking with miles, Service with hours), in the columns of Scoutbook’s log files: BSA Member ID, First Name, Middle Name, Last Name, Log Type, Date (MM/DD/YYYY), Nights, Days, Miles, Hours, Frost Points, Location/Name, Notes. One meeting of a repeating event is `{uid}#{date}` (the `#` sent as `%23`). UTF-8 with a byte-order mark; cells a spreadsheet would run start with a quote.',
  params: AttendanceKey,
  responses: ok({ media: 'text/csv' }, 'A CSV download', {
    403: { description: 'An event for a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'The calendar does not hold the event, or the repeating event does not happen on that day',
    422: 'A repeating event named without the day of one of its meetings',
  }),
  async handler({ db, caller, params }) {
    const { filename, csv } = await attendanceCsv(db, caller, params.uid)
    return csvDownload(filename, csv)
  },
})
