// POST /api/admin/people/invite: a one-time invite link (shown once; no mail is sent), valid 14 days.
import { invite, InviteCreated, NewInvite } from '#server/people/invites.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('people:invite_leader', 'Invite a person', {
  description: 'A one-time link for an email with the roles it grants, valid 14 days and shown once; no mail is sent.',
  body: NewInvite,
  responses: created(InviteCreated, 'The invite, with its link this once', {
    403: 'A role you may not grant, or an open invite for the address that you could not revoke',
    409: 'A person with this email already has an account',
    422: 'A bad email, an unknown unit, or a field that does not fit',
  }),
  handler: ({ db, env, caller, body }) => invite(db, caller, body, env.publicBaseUrl),
})
