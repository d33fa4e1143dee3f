// /api/reset/:token: whose password a one-time link sets (GET, for its page), and setting it (POST); every session of that person ends.
import { LinkFor, LinkToken } from '#server/people/one-time-links.ts'
import { NewPassword, ResetDone, resetLinkFor, useResetLink } from '#server/people/resets.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('public', 'Set a new password with a reset link', {
  operationId: 'resetPassword',
  description: 'Every session of that person ends.',
  params: LinkToken,
  body: NewPassword,
  responses: ok(ResetDone, 'The password is set', {
    404: 'No such reset link',
    410: 'The link has expired, was replaced, or was already used',
  }),
  handler: ({ db, params, body }) => useResetLink(db, params.token, body),
})

export const GET = defineRoute('public', 'Whose password a reset link sets', {
  operationId: 'getResetLink',
  description: "For the link's page, before the password is chosen: the account's email. Nothing for a closed or unknown link.",
  params: LinkToken,
  responses: ok(LinkFor, 'The link works and sets the password of this account', {
    404: 'No such reset link',
    410: 'The link has expired, was replaced, or was already used',
  }),
  handler: ({ db, params }) => resetLinkFor(db, params.token),
})
