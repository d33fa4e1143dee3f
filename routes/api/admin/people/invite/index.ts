// POST /api/admin/people/invite: a one-time invite link (shown once; no mail is sent), valid 14 days.
import { invite, InviteCreated, NewInvite } from '#server/people/invites.ts'
import { defineRoute } from '#server/routes.ts'

export const POST = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Invite a person by email with roles; answers the one-time invite URL once',
  body: NewInvite,
  responses: {
    201: { description: 'The invite, with its link this once', schema: InviteCreated },
    403: 'A role you may not grant (an admin granting owner, a leader outside their units), or an open invite you could not revoke',
    409: 'A person with this email already has an account',
    422: 'A bad email, an unknown unit, or a field that does not fit',
  },
  handler: ({ db, env, caller, body }) => invite(db, caller, body, env.publicBaseUrl),
})
