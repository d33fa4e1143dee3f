// GET /api/admin/site: the last site builds (time, duration, outcome) and whether one is under way.
import { defineRoute, ok } from '#server/routes.ts'
import { SiteStatus, siteStatus } from '#server/site/status.ts'

export const GET = defineRoute('settings:write', "The site's last builds", {
  operationId: 'getSiteStatus',
  description: 'Time, duration and outcome of the last ten, and whether one is under way.',
  responses: ok(SiteStatus, 'The builds'),
  handler: ({ db, site }) => siteStatus(db, site),
})
