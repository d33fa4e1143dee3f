// GET /api/admin/account/sessions: your active sessions, the current one marked.
import { listSessions, SessionList } from '#server/account/account.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'account:self',
  summary: 'Your active sessions, with the current one marked',
  responses: { 200: { description: 'Your sessions, most recently used first', schema: SessionList } },
  handler: ({ db, caller }) => listSessions(db, caller),
})
