// PUT /api/admin/people/:id/roles: replace a person's global role and unit roles (owner only; an owner must remain).
import { PersonAnswer, Roles, setRoles } from '#server/people/people.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const PUT = defineRoute('people:manage', "Replace a person's roles", {
  operationId: 'setRoles',
  description: 'global_role and the full list of unit roles; their keys narrow at once. An enabled owner must remain.',
  params: IdParams,
  body: Roles,
  responses: ok(PersonAnswer, 'The person with their new roles', {
    404: 'No such person',
    409: 'No enabled owner would remain',
    422: 'An unknown unit, or a unit listed twice',
  }),
  handler: ({ db, caller, params, body }) => setRoles(db, caller, params.id, body),
})
