// GET /api/admin/mirrors/failed: leads whose copy to an outside target failed (or never ran).
import { FailedCopies, failedCopies } from '#server/leads/mirrors.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'Leads whose copy to an outside target failed or is still owed',
  responses: { 200: { description: 'Every copy that is not ok', schema: FailedCopies } },
  handler: ({ db }) => failedCopies(db),
})
