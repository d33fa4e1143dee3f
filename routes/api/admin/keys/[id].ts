// DELETE /api/admin/keys/:id: revoke one of the caller's keys; the row stays.
import { KeyView, revokeKey } from '#server/keys/keys.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams, t } from '#server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'apikeys:own',
  summary: "Revoke one of the caller's keys (another person's key is 404)",
  params: IdParams,
  responses: {
    200: { description: 'The revoked key', schema: t.Object({ key: KeyView }, { additionalProperties: false }) },
    404: 'No key of yours with this id',
    409: 'The key is already revoked',
  },
  handler: ({ db, caller, params }) => revokeKey(db, caller, params.id),
})
