// POST /api/admin/people/invite: a one-time invite link (shown once; mailed with send_email), valid 14 days.
import { invite, InviteCreated, NewInvite } from '#server/people/invites.ts'
import { created, defineRoute } from '#server/routes.ts'

export const POST = defineRoute('people:invite_leader', 'Invite a person', {
  operationId: 'createInvite',
  description:
    'A one-time link for an email with the roles it grants, valid 14 days and shown once; with `send_email: true` it is also mailed to the person, otherwise nothing is mailed.',
  body: NewInvite,
  responses: created(InviteCreated, 'The invite, with its link this once', {
    403: 'A role you may not grant, or an open invite for the address that you could not revoke',
    409: 'A person with this email already has an account, or send_email while mail is not set up',
    422: 'A bad email, an unknown unit, or a field that does not fit',
  }),
  handler: ({ db, env, mail, caller, body }) => invite(db, caller, body, env.publicBaseUrl, mail),
})
