// DELETE /api/admin/account/passkeys/:id: remove one of your passkeys, given your password.
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'
import { PasswordCheck, Removed, removePasskey } from '#server/second-factor/factors.ts'

export const DELETE = defineRoute('account:self', 'Remove a passkey', {
  operationId: 'deletePasskey',
  description: 'Needs your password. With no second factor left, the recovery codes go too.',
  session: true,
  accountPage: true,
  params: IdParams,
  body: PasswordCheck,
  responses: ok(Removed, 'Removed', { 404: 'No passkey of yours with this id', 422: 'The password is wrong' }),
  handler: ({ db, mail, caller, address, params, body, loginThrottle }) =>
    removePasskey(db, mail, loginThrottle, caller, address, params.id, body),
})
