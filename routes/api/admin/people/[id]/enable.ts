// POST /api/admin/people/:id/enable: a disabled person may sign in again.
import { Disabled, enablePerson } from '#server/people/people.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute({
  auth: 'people:manage',
  summary: 'Enable a disabled person',
  params: IdParams,
  responses: { 200: { description: 'Enabled (also when already enabled)', schema: Disabled }, 404: 'No such person' },
  handler: ({ db, caller, params }) => enablePerson(db, caller, params.id),
})
