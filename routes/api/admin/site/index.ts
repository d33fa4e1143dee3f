// GET /api/admin/site: the last site builds (time, duration, outcome) and whether one is under way.
import { defineRoute } from '../../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'settings:write',
  summary: "The site's last builds: time, duration and outcome",
  async handler({ db, site }) {
    const builds = await db.selectFrom('site_builds').selectAll().orderBy('id', 'desc').limit(10).execute()
    const view = builds.map((b) => ({ ...b, ok: b.ok === 1 }))
    return { last: view[0] ?? null, last_good: view.find((b) => b.ok) ?? null, building: site?.busy ?? false, builds: view }
  },
})
