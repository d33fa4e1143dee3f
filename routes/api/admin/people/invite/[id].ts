// DELETE /api/admin/people/invite/:id: revoke an open invite (a used, revoked or unknown one is 404).
import { InviteRevoked, revokeInvite } from '#server/people/invites.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const DELETE = defineRoute('people:invite_leader', 'Revoke an invite', {
  operationId: 'revokeInvite',
  description: 'Its link answers 410 from then on. Only what you could have granted.',
  params: IdParams,
  responses: ok(InviteRevoked, 'Revoked', { 403: 'The invite grants a role you may not grant', 404: 'No open invite with this id' }),
  handler: ({ db, caller, params }) => revokeInvite(db, caller, params.id),
})
