// POST /api/admin/account/passkeys: add the passkey the browser made; a first factor brings recovery codes.
import { created, defineRoute } from '#server/routes.ts'
import { addPasskey, NewPasskey, PasskeyAdded } from '#server/second-factor/factors.ts'

export const POST = defineRoute('account:self', 'Add a passkey', {
  operationId: 'addPasskey',
  description:
    'What startRegistration answered, with a name for the device. If it is your first second factor, ten recovery codes come back once.',
  session: true,
  accountPage: true,
  body: NewPasskey,
  responses: created(PasskeyAdded, 'The passkey; recovery codes when it is your first second factor (else none)', {
    422: 'The passkey could not be checked against the open challenge',
  }),
  handler: ({ db, env, caller, body }) => addPasskey(db, env, caller, body),
})
