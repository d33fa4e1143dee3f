// PUT /api/admin/people/:id/roles: replace a person's global role and unit roles (owner only; an owner must remain).
import { PersonAnswer, Roles, setRoles } from '#server/people/people.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const PUT = defineRoute({
  auth: 'people:manage',
  summary: "Replace a person's roles: global_role and the full list of unit roles (409 if no owner would remain)",
  params: IdParams,
  body: Roles,
  responses: {
    200: { description: 'The person with their new roles; their keys narrow at once', schema: PersonAnswer },
    404: 'No such person',
    409: 'No enabled owner would remain',
    422: 'An unknown unit, a unit listed twice, or a field that does not fit',
  },
  handler: ({ db, caller, params, body }) => setRoles(db, caller, params.id, body),
})
