// GET /api/admin/roster?unit=&q=&den=&dues=&health=&inactive_weeks=&limit=&cursor=: households with their scouts,
// this year's checklist and open invites, the dens in use, and counts of what the filters found.
import { nextLink } from '#server/http/paging.ts'
import { roster } from '#server/roster/queries.ts'
import { Roster, RosterQuery } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('roster:write', 'Get the roster', {
  operationId: 'listRoster',
  description:
    "Households with their scouts, this program year's checklist and open invites, sorted by sort name. `unit` (slug or id), `den`, `dues=unpaid` and `health=missing` (missing or expiring within 30 days) and `inactive_weeks=N` (came to no event in the last N weeks) keep the households with a scout that matches, listing only those scouts; `q` searches names, email and phone. `counts` says how many households and scouts that leaves, and how many of the scouts owe dues or a health form. Every household without `limit` or `cursor`; with either, one page in the same order: pass the `next_cursor` of the previous page as `cursor` (also in the `Link` header), while `counts` stay the totals.",
  query: RosterQuery,
  responses: ok(Roster, 'The roster, or one page of it', {
    404: 'No such unit',
    422: 'A dues or health value other than unpaid or missing, or a cursor not for these filters',
  }),
  async handler({ db, query, request, set }) {
    const answer = await roster(db, query)
    Object.assign(set.headers, nextLink(request, answer.next_cursor))
    return answer
  },
})
