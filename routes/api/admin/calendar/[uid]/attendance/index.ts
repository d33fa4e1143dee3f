// GET/PUT /api/admin/calendar/:uid/attendance: who came to an event, marked by its units' leaders once it has started.
import { attendanceOf, takeAttendance } from '#server/attendance/attendance.ts'
import { Attendance, AttendanceBody, AttendanceKey } from '#server/attendance/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

const refusals = {
  403: { description: 'An event (or a scout) of a unit you do not lead', codes: ['unit_out_of_scope'] },
  404: 'No such event, or the repeating event does not happen on that date',
}

export const GET = defineRoute('calendar:write', 'Who came to an event', {
  operationId: 'getAttendance',
  description:
    'The scouts listed for the event — confirmed sign-ups, or every active scout of its units when it asked for none, and anyone ' +
    'already marked — with who signed up and who is marked present; the other active scouts of your units to add one who came ' +
    'unannounced; and the adults. One occurrence of a repeating event is `{uid}#{date}` (the `#` sent as `%23`). On an event for both units you see your units’ scouts.',
  params: AttendanceKey,
  responses: ok(Attendance, 'Who is listed and who came', {
    ...refusals,
    422: 'A repeating event named without the day of its occurrence',
  }),
  handler: ({ db, caller, params }) => attendanceOf(db, caller, params.uid),
})

export const PUT = defineRoute('calendar:write', 'Mark who came to an event', {
  operationId: 'takeAttendance',
  description:
    'Marks the scouts (by id, signed up or not) and adults (by name) sent as present or not; those not sent stay as they are, so one ' +
    'tap sends one scout. Possible once the event has started. Send an `Idempotency-Key` so a retry over a patchy signal is done once. ' +
    'Answers the attendance as `GET` does.',
  retried: true,
  params: AttendanceKey,
  body: AttendanceBody,
  responses: ok(Attendance, 'Who is listed and who came, after the change', {
    ...refusals,
    422: {
      description:
        'The event has not started (`event_not_started`), a repeating event named without its day, an unknown scout, a scout of another unit, or a scout or adult sent twice',
      codes: ['event_not_started'],
    },
  }),
  handler: ({ db, caller, params, body }) => takeAttendance(db, caller, params.uid, body),
})
