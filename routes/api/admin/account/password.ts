// POST /api/admin/account/password: change your own password; your other sessions end.
import { changePassword, PasswordChange, PasswordChanged } from '#server/account/account.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const POST = defineRoute('account:self', 'Change your password', {
  operationId: 'changePassword',
  description: 'Needs your current password. Your other sessions end, and so do open reset links.',
  accountPage: true,
  body: PasswordChange,
  responses: ok(PasswordChanged, 'Changed', { 422: 'The current password is wrong, or the new one is not 8 to 200 characters' }),
  handler: ({ db, caller, address, body, loginThrottle }) => changePassword(db, loginThrottle, caller, address, body),
})
