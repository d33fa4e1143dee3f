// GET /api/admin/leads: leads newest first; `q` searches name, email, phone and message; unclaimed/mine filters; paging.
import { LeadPage, LeadQuery, listLeads } from '#server/leads/leads.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('leads:read', 'List leads', {
  description: 'Newest first. `q` searches name, email, phone, message and scout name; `filter` unclaimed or mine; page with `before_id`.',
  query: LeadQuery,
  responses: ok(LeadPage, 'One page of leads (a search miss is an empty page)'),
  handler: ({ db, caller, query }) => listLeads(db, caller, query),
})
