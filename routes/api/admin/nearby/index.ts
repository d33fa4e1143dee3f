// GET/POST /api/admin/nearby: the editing list of nearby units (inactive rows too), and adding one.
import { addNearby, listNearby, NearbyList, NearbyView, NewNearby } from '#server/nearby/nearby.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('nearby:write', 'List nearby units', {
  operationId: 'listNearbyUnits',
  description: 'The editing list: active first, inactive ones too.',
  responses: ok(NearbyList, 'Every nearby unit'),
  handler: ({ db }) => listNearby(db),
})

export const POST = defineRoute('nearby:write', 'Add a nearby unit', {
  operationId: 'createNearbyUnit',
  description: 'verified_at becomes today unless a date is sent.',
  body: NewNearby,
  publishes: true,
  responses: created(NearbyView, 'The new row', { 422: 'A missing name, an unknown unit_type, or another field that does not fit' }),
  handler: ({ db, caller, body }) => addNearby(db, caller, body),
})
