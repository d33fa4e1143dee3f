// POST /api/admin/account/recovery-codes: ten new recovery codes in place of your old ones, given your password.
import { created, defineRoute } from '#server/routes.ts'
import { NewRecoveryCodes, newRecoveryCodes, PasswordCheck } from '#server/second-factor/factors.ts'

export const POST = defineRoute('account:self', 'Make new recovery codes', {
  operationId: 'renewRecoveryCodes',
  description: 'Needs your password; the old codes stop working. Shown this once.',
  session: true,
  accountPage: true,
  body: PasswordCheck,
  responses: created(NewRecoveryCodes, 'The new codes', { 409: 'You have no second factor', 422: 'The password is wrong' }),
  handler: ({ db, caller, address, body, loginThrottle }) => newRecoveryCodes(db, loginThrottle, caller, address, body),
})
