// GET /api/admin/summary: the counts a leader needs at a glance.
import { Summary, summary } from '#server/leads/summary.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('leads:read', 'Counts at a glance', {
  operationId: 'getSummary',
  description: 'New and unclaimed leads, leads you hold, failed copies, live announcements, and the admin pages you use most.',
  responses: ok(Summary, 'The counts'),
  handler: ({ db, caller }) => summary(db, caller),
})
