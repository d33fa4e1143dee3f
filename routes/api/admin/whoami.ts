// GET /api/admin/whoami: who the caller is, how they authenticated, and what they may do.
import { whoami, Whoami } from '#server/account/account.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'any',
  summary: 'Who the caller is, how authenticated, and the capabilities held',
  responses: { 200: { description: 'The caller', schema: Whoami } },
  handler: ({ caller }) => whoami(caller),
})
