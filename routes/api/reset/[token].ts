// POST /api/reset/:token: set a new password with a one-time link; every session of that person ends.
import { LinkToken } from '#server/people/one-time-links.ts'
import { NewPassword, ResetDone, useResetLink } from '#server/people/resets.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('public', 'Set a new password with a reset link', {
  description: 'Every session of that person ends.',
  params: LinkToken,
  body: NewPassword,
  responses: ok(ResetDone, 'The password is set', {
    404: 'No such reset link',
    410: 'The link has expired, was replaced, or was already used',
  }),
  handler: ({ db, params, body }) => useResetLink(db, params.token, body),
})
