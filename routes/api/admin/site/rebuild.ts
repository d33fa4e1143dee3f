// POST /api/admin/site/rebuild: queue a site build now.
import { defineRoute } from '#server/routes.ts'
import { askForRebuild, RebuildQueued } from '#server/site/status.ts'

export const POST = defineRoute({
  auth: 'settings:write',
  summary: 'Queue a site rebuild',
  responses: { 202: { description: 'Queued; GET /api/admin/site shows its outcome', schema: RebuildQueued } },
  handler: ({ db, caller, site }) => askForRebuild(db, caller, site),
})
