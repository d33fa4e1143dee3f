// DELETE /api/admin/account/sessions/:id: end one of your sessions (someone else's is 404).
import { endSession, SessionEnded } from '#server/account/account.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const DELETE = defineRoute('account:self', 'End one of your sessions', {
  operationId: 'endSession',
  accountPage: true,
  params: IdParams,
  responses: ok(SessionEnded, 'Ended', { 404: 'No session of yours with this id' }),
  handler: ({ db, caller, params }) => endSession(db, caller, params.id),
})
