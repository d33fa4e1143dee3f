// POST /api/admin/site/rebuild: queue a site build now.
import { record } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'

export const POST = defineRoute({
  auth: 'settings:write',
  summary: 'Queue a site rebuild',
  async handler({ db, caller, site, set }) {
    await record(db, caller.actor, 'site.rebuild', 'Asked for a site rebuild')
    site?.request('asked by ' + caller.actor)
    set.status = 202
    return { queued: site !== null }
  },
})
