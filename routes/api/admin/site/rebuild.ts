// POST /api/admin/site/rebuild: queue a site build now.
import { accepted, defineRoute } from '#server/routes.ts'
import { askForRebuild, RebuildQueued } from '#server/site/status.ts'

export const POST = defineRoute('settings:write', 'Rebuild the site', {
  operationId: 'rebuildSite',
  responses: accepted(RebuildQueued, 'Queued; GET /api/admin/site shows its outcome'),
  handler: ({ db, caller, site }) => askForRebuild(db, caller, site),
})
