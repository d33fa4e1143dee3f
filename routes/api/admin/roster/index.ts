// GET /api/admin/roster?unit=: households with their scouts and this year's checklist, and the unit's dens.
import { roster } from '#server/roster/queries.ts'
import { Roster, RosterQuery } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('roster:write', 'Get the roster', {
  description: "Households with their scouts and this program year's checklist; `unit` (slug or id) narrows it to one unit.",
  query: RosterQuery,
  responses: ok(Roster, 'The roster', { 404: 'No such unit' }),
  handler: ({ db, query }) => roster(db, query.unit),
})
