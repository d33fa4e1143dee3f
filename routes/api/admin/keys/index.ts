// GET/POST /api/admin/keys: the caller's API keys, and minting a new one (secret shown once).
import { KeyList, listKeys, mintKey, MintedKey, NewKey } from '#server/keys/keys.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'apikeys:own',
  summary: "The caller's keys, newest first, with state; and the scopes a new key may carry",
  responses: { 200: { description: 'Your keys (never their secrets)', schema: KeyList } },
  handler: ({ db, caller }) => listKeys(db, caller),
})

export const POST = defineRoute({
  auth: 'apikeys:own',
  summary: 'Mint a key; the secret is in this answer only',
  body: NewKey,
  responses: {
    201: { description: 'The new key, with its secret this once', schema: MintedKey },
    403: 'A scope you do not hold, or the caller is a key or the break-glass token',
    422: 'A scope no key may carry (apikeys:own, api:docs, people:manage), or a field that does not fit',
  },
  handler: ({ db, caller, body }) => mintKey(db, caller, body),
})
