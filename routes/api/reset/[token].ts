// POST /api/reset/:token: set a new password with a one-time link; every session of that person ends.
import { NewPassword, ResetDone, useResetLink } from '#server/people/resets.ts'
import { defineRoute } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Set a new password with a reset link; ends every session of that person',
  params: t.Object({ token: Line(100, { description: 'The token from the reset link' }) }),
  body: NewPassword,
  responses: {
    200: { description: 'The password is set; sign in with it', schema: ResetDone },
    404: 'No such reset link',
    410: 'The link has expired, was replaced, or was already used',
  },
  handler: ({ db, params, body }) => useResetLink(db, params.token, body),
})
