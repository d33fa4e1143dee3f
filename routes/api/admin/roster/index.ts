// GET /api/admin/roster?unit=: households with their scouts and this year's checklist, and the unit's dens.
import { roster } from '#server/roster/queries.ts'
import { Roster, RosterQuery } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'roster:write',
  summary: "Households with scouts and this program year's checklist; `unit` (slug or id) narrows to one unit",
  query: RosterQuery,
  responses: { 200: { description: 'The roster', schema: Roster }, 404: 'No such unit' },
  handler: ({ db, query }) => roster(db, query.unit),
})
