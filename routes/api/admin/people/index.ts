// GET /api/admin/people: everyone with an account, their roles, sessions and keys; open invites; what the caller may grant.
import { listPeople, People } from '#server/people/people.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('people:invite_leader', 'List people', {
  operationId: 'listPeople',
  description: 'Everyone with an account (roles, memberships, sessions, keys), open invites, and what you may grant.',
  responses: ok(People, 'Everyone, and what you may grant'),
  handler: ({ db, caller }) => listPeople(db, caller),
})
