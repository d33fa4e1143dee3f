// POST /api/admin/people/:id/enable: a disabled person may sign in again.
import { Disabled, enablePerson } from '#server/people/people.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const POST = defineRoute('people:manage', 'Enable a person', {
  operationId: 'enablePerson',
  description: 'A disabled person may sign in again.',
  params: IdParams,
  responses: ok(Disabled, 'Enabled (also when already enabled)', { 404: 'No such person' }),
  handler: ({ db, caller, params }) => enablePerson(db, caller, params.id),
})
