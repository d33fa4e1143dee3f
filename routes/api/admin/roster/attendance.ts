// GET /api/admin/roster/attendance?unit=&from=&to=: per scout, meetings held and attended, other events, the share.
import { AttendanceReport, AttendanceReportQuery } from '#server/attendance/log-schemas.ts'
import { attendanceReport } from '#server/attendance/report.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('roster:write', 'Attendance by scout', {
  operationId: 'getAttendanceReport',
  description:
    'For each scout of an active household in the unit (every unit you lead without `unit`): the meetings from `from` to `to` at which attendance was taken for their unit, how many they came to and the share, the other events they came to, and the last day they came to anything. The program year so far by default.',
  query: AttendanceReportQuery,
  responses: ok(AttendanceReport, 'The report', {
    403: { description: 'A unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'No such unit',
    422: 'A date that is not one, or `to` before `from`',
  }),
  handler: ({ db, caller, query }) => attendanceReport(db, caller, query),
})
