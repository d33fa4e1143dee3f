// GET /api/admin/socialposts: reported posts, newest scheduled first; open ones by default, `all=true` for every post.
import { t } from '../../../../server/schemas.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { getSetting } from '../../../../server/settings/registry.ts'
import { isOpen, postView } from '../../../../server/socialposts/posts.ts'

export const GET = defineRoute({
  auth: 'socialposts:read',
  summary: 'Reported posts, newest scheduled first; open posts unless `all=true` (published ones drop out)',
  query: t.Object({ all: t.Optional(t.Boolean()) }),
  async handler({ db, query }) {
    const rows = await db.selectFrom('social_posts').selectAll().orderBy('scheduled_for', 'desc').execute()
    const posts = rows.map(postView)
    // The site's time zone comes along so pages show times as the units live them.
    return { timezone: await getSetting(db, 'site.timezone'), posts: query.all ? posts : posts.filter((p) => isOpen(p.status)) }
  },
})
