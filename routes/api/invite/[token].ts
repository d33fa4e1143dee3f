// /api/invite/:token: whom an invite is for (GET, for its page), and accepting it (POST), which creates the account with its roles (signed in at once).
import { Accepted, Acceptance, acceptInvite, inviteFor } from '#server/people/invites.ts'
import { LinkFor, LinkToken } from '#server/people/one-time-links.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('public', 'Accept an invite', {
  operationId: 'acceptInvite',
  description: 'Sets a password and creates the account with the roles of the invite; you are signed in at once.',
  params: LinkToken,
  body: Acceptance,
  responses: created(Accepted, 'The account; the session cookie is in Set-Cookie', {
    404: 'No such invite link',
    409: 'An account with this email exists already',
    410: 'The link has expired, was revoked or was already used',
  }),
  async handler({ db, params, body, client, startSession }) {
    const { token, ...account } = await acceptInvite(db, params.token, body, client)
    return { ...account, start: await startSession(token, account.id) }
  },
})

export const GET = defineRoute('public', 'Whom an invite is for', {
  operationId: 'getInviteLink',
  description:
    "For the invite's page, before the password is chosen: the email the account will have. Nothing for a closed or unknown link.",
  params: LinkToken,
  responses: ok(LinkFor, 'The invite works and makes an account for this email', {
    404: 'No such invite link',
    410: 'The link has expired, was revoked or was already used',
  }),
  handler: ({ db, params }) => inviteFor(db, params.token),
})
