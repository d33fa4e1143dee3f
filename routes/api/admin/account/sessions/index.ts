// GET /api/admin/account/sessions: your active sessions, the current one marked.
import { listSessions, SessionList } from '#server/account/account.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'List your sessions', {
  operationId: 'listSessions',
  accountPage: true,
  responses: ok(SessionList, 'Your sessions, most recently used first, the current one marked'),
  handler: ({ db, caller }) => listSessions(db, caller),
})
