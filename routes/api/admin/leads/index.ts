// GET /api/admin/leads: leads newest first; `q` searches name, email, phone and message; unclaimed/mine filters; paging.
import { LeadPage, LeadQuery, listLeads } from '#server/leads/leads.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'Leads, newest first: search `q`, `filter` unclaimed or mine, paging with `before_id`',
  query: LeadQuery,
  responses: { 200: { description: 'One page of leads (a search miss is an empty page)', schema: LeadPage } },
  handler: ({ db, caller, query }) => listLeads(db, caller, query),
})
