// GET /api/admin/site: the last site builds (time, duration, outcome) and whether one is under way.
import { defineRoute } from '#server/routes.ts'
import { SiteStatus, siteStatus } from '#server/site/status.ts'

export const GET = defineRoute({
  auth: 'settings:write',
  summary: "The site's last builds: time, duration and outcome",
  responses: { 200: { description: 'The builds', schema: SiteStatus } },
  handler: ({ db, site }) => siteStatus(db, site),
})
