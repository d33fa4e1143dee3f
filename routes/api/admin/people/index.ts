// GET /api/admin/people: everyone with an account, their roles, sessions and keys; open invites; what the caller may grant.
import { listPeople, People } from '#server/people/people.ts'
import { defineRoute } from '#server/routes.ts'

export const GET = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Everyone with an account: roles, memberships, active sessions, keys; open invites; what you may grant',
  responses: { 200: { description: 'Everyone, and what you may grant', schema: People } },
  handler: ({ db, caller }) => listPeople(db, caller),
})
