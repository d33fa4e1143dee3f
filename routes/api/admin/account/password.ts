// POST /api/admin/account/password: change your own password; your other sessions end.
import { changePassword, PasswordChange, PasswordChanged } from '#server/account/account.ts'
import { defineRoute } from '#server/routes.ts'

export const POST = defineRoute({
  auth: 'account:self',
  summary: 'Change your password (current password required); your other sessions and open reset links end',
  body: PasswordChange,
  responses: {
    200: { description: 'Changed', schema: PasswordChanged },
    422: 'The current password is wrong, or the new one is not 8 to 200 characters',
  },
  handler: ({ db, caller, body }) => changePassword(db, caller, body),
})
