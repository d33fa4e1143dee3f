// GET/POST /api/admin/nearby: the editing list of nearby units (inactive rows too), and adding one.
import { addNearby, listNearby, NearbyList, NearbyView, NewNearby } from '#server/nearby/nearby.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'nearby:write',
  summary: 'Every nearby unit, inactive ones included',
  responses: { 200: { description: 'The editing list', schema: NearbyList } },
  handler: ({ db }) => listNearby(db),
})

export const POST = defineRoute({
  auth: 'nearby:write',
  summary: 'Add a nearby unit (422 for a bad unit_type)',
  body: NewNearby,
  publishes: true,
  responses: {
    201: { description: 'The new row, verified today unless a date was sent', schema: NearbyView },
    422: 'A missing name, an unknown unit_type, or another field that does not fit',
  },
  handler: ({ db, caller, body }) => addNearby(db, caller, body),
})
