// GET /api/admin/summary: the counts a leader needs at a glance.
import { Summary, summary } from '#server/leads/summary.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'Counts at a glance: new and unclaimed leads, leads claimed by me, failed mirror copies, live announcements',
  responses: { 200: { description: 'The counts', schema: Summary } },
  handler: ({ db, caller }) => summary(db, caller),
})
