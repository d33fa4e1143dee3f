// POST /api/admin/account/passkeys: add the passkey the browser made; a first factor brings recovery codes.
import { created, defineRoute } from '#server/routes.ts'
import { addPasskey, NewPasskey, PasskeyAdded } from '#server/second-factor/factors.ts'

export const POST = defineRoute('account:self', 'Add a passkey', {
  operationId: 'addPasskey',
  description:
    'Needs a confirmation in the last 10 minutes (POST /api/admin/account/confirm). What startRegistration answered, with a name for the device. If it is your first second factor, ten recovery codes come back once.',
  session: true,
  accountPage: true,
  body: NewPasskey,
  responses: created(PasskeyAdded, 'The passkey; recovery codes when it is your first second factor (else none)', {
    403: { description: 'Your session has not confirmed it is you in the last 10 minutes', codes: ['confirm_required'] },
    422: 'The passkey could not be checked against the open challenge',
  }),
  handler: ({ db, env, mail, caller, body }) => addPasskey(db, env, mail, caller, body),
})
