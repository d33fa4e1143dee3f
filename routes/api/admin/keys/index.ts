// GET/POST/DELETE /api/admin/keys: the caller's API keys, minting a new one (secret shown once), revoking them all.
import { KeyList, KeysRevoked, listKeys, mintKey, MintedKey, NewKey, revokeAllKeys } from '#server/keys/keys.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('apikeys:own', 'List your keys', {
  operationId: 'listKeys',
  description: 'Newest first, each with its state, never its secret; and the scopes a new key may carry.',
  responses: ok(KeyList, 'Your keys'),
  handler: ({ db, caller }) => listKeys(db, caller),
})

export const POST = defineRoute('apikeys:own', 'Mint a key', {
  operationId: 'createKey',
  description:
    'Needs a confirmation in the last 10 minutes (POST /api/admin/account/confirm). The secret is in this answer only. A key holds its scopes ∩ your capabilities, now and later.',
  body: NewKey,
  responses: created(MintedKey, 'The new key, with its secret this once', {
    403: {
      description: 'A scope you do not hold, a key or the break-glass token asking, or no confirmation in the last 10 minutes',
      codes: ['confirm_required'],
    },
    422: 'A scope no key may carry (apikeys:own, api:docs, people:manage)',
  }),
  handler: ({ db, mail, caller, body }) => mintKey(db, mail, caller, body),
})

export const DELETE = defineRoute('apikeys:own', 'Revoke all your keys', {
  operationId: 'revokeAllKeys',
  description:
    'Every key of yours stops working (the rows stay), and the links they gave close: after a password change, when the account may have been taken.',
  responses: ok(KeysRevoked, 'How many were revoked'),
  handler: ({ db, caller }) => revokeAllKeys(db, caller),
})
