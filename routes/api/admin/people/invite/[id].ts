// DELETE /api/admin/people/invite/:id: revoke an open invite (a used, revoked or unknown one is 404).
import { InviteRevoked, revokeInvite } from '#server/people/invites.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Revoke an open invite (repeat 404)',
  params: IdParams,
  responses: {
    200: { description: 'Revoked: its link answers 410 from now on', schema: InviteRevoked },
    403: 'The invite grants a role you may not grant',
    404: 'No open invite with this id',
  },
  handler: ({ db, caller, params }) => revokeInvite(db, caller, params.id),
})
