// GET /api/admin/leads: leads newest first; `q` searches name, email, phone and message; unclaimed/mine filters; paging.
import { t } from '../../../../server/schemas.ts'
import { leadsQuery, leadView, matches } from '../../../../server/leads/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'Leads, newest first: search `q`, `filter` unclaimed or mine, paging with `before_id`',
  query: t.Object({
    q: t.Optional(t.String({ maxLength: 200 })),
    filter: t.Optional(t.Union([t.Literal('all'), t.Literal('unclaimed'), t.Literal('mine')])),
    before_id: t.Optional(t.Integer({ minimum: 1 })),
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 200 })),
  }),
  async handler({ db, query, caller }) {
    const limit = query.limit ?? 50
    let q = leadsQuery(db)
    const text = query.q?.trim().toLowerCase()
    if (text) q = q.where(matches(text))
    if (query.filter === 'unclaimed') q = q.where('leads.claimed_by', 'is', null)
    if (query.filter === 'mine') q = q.where('leads.claimed_by', '=', caller.person?.id ?? -1)
    if (query.before_id) q = q.where('leads.id', '<', query.before_id)
    const rows = await q
      .orderBy('leads.id', 'desc')
      .limit(limit + 1)
      .execute()
    const leads = rows.slice(0, limit).map(leadView)
    return { leads, next_before_id: rows.length > limit ? leads[leads.length - 1].id : null }
  },
})
