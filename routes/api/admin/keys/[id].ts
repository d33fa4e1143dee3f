// DELETE /api/admin/keys/:id: revoke one of the caller's keys; the row stays.
import { KeyView, revokeKey } from '#server/keys/keys.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams, t } from '#server/schemas.ts'

export const DELETE = defineRoute('apikeys:own', 'Revoke one of your keys', {
  description: "The row stays and the key answers 401 from now on. Another person's key is 404, never 403.",
  params: IdParams,
  responses: ok(t.Object({ key: KeyView }, { additionalProperties: false }), 'The revoked key', {
    404: 'No key of yours with this id',
    409: 'Already revoked',
  }),
  handler: ({ db, caller, params }) => revokeKey(db, caller, params.id),
})
