// GET /api/admin/leads: leads newest first; `q` searches name, email, phone and message; unclaimed/mine filters; paging.
import { nextLink } from '#server/http/paging.ts'
import { listLeads } from '#server/leads/queries.ts'
import { LeadPage, LeadQuery } from '#server/leads/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('leads:read', 'List leads', {
  operationId: 'listLeads',
  description:
    "Newest first. `q` searches name, email, phone, message and scout name; `filter` unclaimed or mine. Page with `limit` and the `next_cursor` of the previous page as `cursor` (also in the `Link` header). Older form: `before_id` set to the previous page's `next_before_id`.",
  query: LeadQuery,
  responses: ok(LeadPage, 'One page of leads (a search miss is an empty page)', { 422: 'A cursor not for these filters' }),
  async handler({ db, caller, query, request, set }) {
    const page = await listLeads(db, caller, query)
    Object.assign(set.headers, nextLink(request, page.next_cursor))
    return page
  },
})
