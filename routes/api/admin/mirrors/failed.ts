// GET /api/admin/mirrors/failed: leads whose copy to an outside target failed (or never ran).
import { defineRoute } from '../../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'Leads whose copy to an outside target failed or is still owed',
  async handler({ db }) {
    const failed = await db
      .selectFrom('mirror_copies')
      .innerJoin('leads', 'leads.id', 'mirror_copies.lead_id')
      .select([
        'mirror_copies.lead_id',
        'leads.parent_name',
        'leads.created_at',
        'mirror_copies.target',
        'mirror_copies.status',
        'mirror_copies.attempts',
        'mirror_copies.last_attempt_at',
        'mirror_copies.error',
      ])
      .where('mirror_copies.status', '!=', 'ok')
      .orderBy('mirror_copies.lead_id', 'desc')
      .execute()
    return { failed }
  },
})
