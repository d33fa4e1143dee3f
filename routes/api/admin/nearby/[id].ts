// PATCH/DELETE /api/admin/nearby/:id: edit a nearby unit (verified today unless a date is sent); deactivate it.
import { changeNearby, deactivateNearby, NearbyChange, NearbyView } from '#server/nearby/nearby.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const PATCH = defineRoute({
  auth: 'nearby:write',
  summary: 'Edit a nearby unit; verified_at becomes today unless the payload carries a date',
  params: IdParams,
  body: NearbyChange,
  publishes: true,
  responses: { 200: { description: 'The row after the change', schema: NearbyView }, 404: 'No such nearby unit' },
  handler: ({ db, caller, params, body }) => changeNearby(db, caller, params.id, body),
})

export const DELETE = defineRoute({
  auth: 'nearby:write',
  summary: 'Deactivate a nearby unit (row kept; 409 if already inactive)',
  params: IdParams,
  publishes: true,
  responses: {
    200: { description: 'The row, now inactive', schema: NearbyView },
    404: 'No such nearby unit',
    409: 'The nearby unit is already inactive',
  },
  handler: ({ db, caller, params }) => deactivateNearby(db, caller, params.id),
})
