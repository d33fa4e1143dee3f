// GET/PATCH/DELETE /api/admin/nearby/:id: one nearby unit; edit a nearby unit (verified today unless a date is sent); deactivate it.
import { changeNearby, deactivateNearby, nearbyById, NearbyChange, NearbyView } from '#server/nearby/nearby.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('nearby:write', 'Get a nearby unit', {
  operationId: 'getNearbyUnit',
  description: 'As the editing list shows it, inactive or not.',
  params: IdParams,
  responses: ok(NearbyView, 'The row', { 404: 'No such nearby unit' }),
  handler: ({ db, params }) => nearbyById(db, params.id),
})

export const PATCH = defineRoute('nearby:write', 'Edit a nearby unit', {
  operationId: 'updateNearbyUnit',
  description: 'Partial; verified_at becomes today unless the change carries a date. `active: 1` reactivates a row.',
  params: IdParams,
  body: NearbyChange,
  publishes: true,
  responses: ok(NearbyView, 'The row after the change', { 404: 'No such nearby unit' }),
  handler: ({ db, caller, params, body }) => changeNearby(db, caller, params.id, body),
})

export const DELETE = defineRoute('nearby:write', 'Deactivate a nearby unit', {
  operationId: 'deleteNearbyUnit',
  description: 'The row stays in the editing list, inactive.',
  params: IdParams,
  publishes: true,
  responses: ok(NearbyView, 'The row, now inactive', { 404: 'No such nearby unit', 409: 'Already inactive' }),
  handler: ({ db, caller, params }) => deactivateNearby(db, caller, params.id),
})
