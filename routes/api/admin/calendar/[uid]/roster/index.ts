// GET /api/admin/calendar/:uid/roster: the trip roster of an event with sign-ups, for the leader who takes the scouts.
import { Uid } from '#server/calendar/schemas.ts'
import { tripRoster, TripRoster } from '#server/calendar/trip-roster.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('calendar:write', 'The trip roster', {
  operationId: 'getTripRoster',
  description:
    'The scouts and adults coming, each household’s phones and emergency contact, health forms current on the day, ' +
    'permission slips, balances and slots, with what is still missing first.',
  params: Uid,
  responses: ok(TripRoster, 'The trip roster', {
    403: { description: 'An event for a unit you do not lead', codes: ['unit_out_of_scope'] },
    404: 'The event never asked for replies',
  }),
  handler: ({ db, caller, params }) => tripRoster(db, caller, params.uid),
})
