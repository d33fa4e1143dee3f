// POST /api/admin/account/recovery-codes: ten new recovery codes in place of your old ones, given your password.
import { created, defineRoute } from '#server/routes.ts'
import { NewRecoveryCodes, newRecoveryCodes, PasswordCheck } from '#server/second-factor/factors.ts'

export const POST = defineRoute('account:self', 'Make new recovery codes', {
  operationId: 'renewRecoveryCodes',
  description: 'Needs a confirmation in the last 10 minutes and your password; the old codes stop working. Shown this once.',
  session: true,
  accountPage: true,
  body: PasswordCheck,
  responses: created(NewRecoveryCodes, 'The new codes', {
    403: { description: 'Your session has not confirmed it is you in the last 10 minutes', codes: ['confirm_required'] },
    409: 'You have no second factor',
    422: 'The password is wrong',
  }),
  handler: ({ db, mail, caller, address, body, loginThrottle }) => newRecoveryCodes(db, mail, loginThrottle, caller, address, body),
})
