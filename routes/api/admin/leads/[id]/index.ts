// GET /api/admin/leads/:id: one lead with its claim and its copies to outside targets.
import { notFound } from '../../../../../server/errors.ts'
import { findLead } from '../../../../../server/leads/queries.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, parseId } from '../../../../../server/schemas.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'One lead with its claim and mirror copies',
  params: IdParams,
  async handler({ db, params }) {
    const id = parseId(params.id)
    const lead = await findLead(db, id)
    if (!lead) throw notFound('No such lead')
    const mirrors = await db
      .selectFrom('mirror_copies')
      .select(['target', 'status', 'attempts', 'last_attempt_at', 'error'])
      .where('lead_id', '=', id)
      .execute()
    return { lead: { ...lead, mirrors } }
  },
})
