// GET/DELETE /api/admin/keys/:id: one of the caller's API keys (never its secret); revoke it, the row stays.
import { keyById, KeyView, keyView, revokeKey } from '#server/keys/keys.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

const NOT_YOURS = 'No key of yours with this id'

export const GET = defineRoute('apikeys:own', 'Get one of your keys', {
  operationId: 'getKey',
  description: "As the list shows it, never its secret. Another person's key is 404, never 403.",
  params: IdParams,
  responses: ok(KeyView, 'The key', { 404: NOT_YOURS }),
  handler: async ({ db, caller, params }) => keyView(await keyById(db, caller, params.id)),
})

export const DELETE = defineRoute('apikeys:own', 'Revoke one of your keys', {
  operationId: 'revokeKey',
  description: "The row stays and the key answers 401 from now on. Another person's key is 404, never 403.",
  params: IdParams,
  responses: ok(KeyView, 'The key, now revoked', { 404: NOT_YOURS, 409: 'Already revoked' }),
  handler: ({ db, caller, params }) => revokeKey(db, caller, params.id),
})
