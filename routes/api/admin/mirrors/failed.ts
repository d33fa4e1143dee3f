// GET /api/admin/mirrors/failed: leads whose copy to an outside target failed (or never ran).
import { FailedCopies, failedCopies } from '#server/leads/mirrors.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('leads:read', 'List failed copies', {
  operationId: 'listFailedMirrors',
  description: 'Leads whose copy to an outside target failed, or is still owed after a restart.',
  responses: ok(FailedCopies, 'Every copy that is not ok'),
  handler: ({ db }) => failedCopies(db),
})
