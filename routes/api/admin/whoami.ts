// GET /api/admin/whoami: who the caller is, how they authenticated, and what they may do.
import { whoami, Whoami } from '#server/account/account.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('any', 'Who you are', {
  operationId: 'whoami',
  description: 'How you authenticated (session, key or break_glass), the person behind it, and the capabilities you hold.',
  accountPage: true,
  responses: ok(Whoami, 'The caller'),
  handler: ({ caller }) => whoami(caller),
})
