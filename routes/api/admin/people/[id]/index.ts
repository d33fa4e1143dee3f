// GET /api/admin/people/:id: one person as the people list shows them (roles, memberships, sessions, keys).
import { personById, PersonListing } from '#server/people/people.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('people:invite_leader', 'Get a person', {
  operationId: 'getPerson',
  description: 'Roles, memberships, sessions (address and browser only for yourself and owners), keys and second factor.',
  params: IdParams,
  responses: ok(PersonListing, 'The person', { 404: 'No such person' }),
  handler: ({ db, caller, params }) => personById(db, caller, params.id),
})
