// GET /api/admin/roster/scouts/:id/log: the events a scout came to and what they counted for, with the totals.
import { scoutLog } from '#server/attendance/log.ts'
import { ScoutLog } from '#server/attendance/log-schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('account:self', "A scout's log", {
  operationId: 'getScoutLog',
  description:
    'Every event the scout came to, newest first, with the camping nights, service hours and miles each counted for, and the totals for this program year and all time. For leaders of the unit the scout is in and for the scout’s own household. Kept by scout: a scout who moved from the pack to the troop keeps the pack’s entries.',
  params: IdParams,
  responses: ok(ScoutLog, 'The log', {
    403: { description: 'A scout of a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'No such scout, or not one of your household',
  }),
  handler: ({ db, caller, params }) => scoutLog(db, caller, params.id),
})
