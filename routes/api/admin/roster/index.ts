// GET /api/admin/roster?unit=&q=&den=&dues=&health=: households with their scouts, this year's checklist and open
// invites, the dens in use, and counts of what the filters found.
import { roster } from '#server/roster/queries.ts'
import { Roster, RosterQuery } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('roster:write', 'Get the roster', {
  description:
    "Households with their scouts, this program year's checklist and open invites, sorted by sort name. `unit` (slug or id), `den`, `dues=unpaid` and `health=missing` (missing or expiring within 30 days) keep the households with a scout that matches, listing only those scouts; `q` searches names, email and phone. `counts` says how many households and scouts that leaves, and how many of the scouts owe dues or a health form.",
  query: RosterQuery,
  responses: ok(Roster, 'The roster', { 404: 'No such unit', 422: 'A dues or health value other than unpaid or missing' }),
  handler: ({ db, query }) => roster(db, query),
})
