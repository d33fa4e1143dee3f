// GET/PATCH /api/admin/roster/households/:id: one household; edit its fields or deactivate it.
import { changeHousehold } from '#server/roster/commands.ts'
import { householdById } from '#server/roster/queries.ts'
import { HouseholdChange, HouseholdView } from '#server/roster/schemas.ts'
import { defineRoute } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute({
  auth: 'roster:write',
  summary: 'One household with its accounts, scouts and checklist',
  params: IdParams,
  responses: { 200: { description: 'The household', schema: HouseholdView }, 404: 'No such household' },
  handler: ({ db, params }) => householdById(db, params.id),
})

export const PATCH = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Edit a household; {"active": false} deactivates it (it drops off the family view)',
  params: IdParams,
  body: HouseholdChange,
  responses: { 200: { description: 'The household after the change', schema: HouseholdView }, 404: 'No such household' },
  handler: ({ db, caller, params, body }) => changeHousehold(db, caller, params.id, body),
})
