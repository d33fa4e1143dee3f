// GET /api/admin/account/sessions: your active sessions, the current one marked.
import { defineRoute } from '../../../../../server/routes.ts'
import { nowIso } from '../../../../../server/schemas.ts'

export const GET = defineRoute({
  auth: 'account:self',
  summary: 'Your active sessions, with the current one marked',
  async handler({ db, caller }) {
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'last_seen_at', 'address', 'user_agent'])
      .where('person_id', '=', caller.person!.id)
      .where('expires_at', '>', nowIso())
      .orderBy('last_seen_at', 'desc')
      .execute()
    return { sessions: rows.map((s) => ({ ...s, current: s.id === caller.sessionId })) }
  },
})
