// GET/PATCH /api/admin/roster/households/:id: one household; edit its fields or deactivate it (its scouts' photos
// then leave the public photos page).
import { consentChanged } from '#server/photos/public.ts'
import { changeHousehold } from '#server/roster/commands.ts'
import { householdById } from '#server/roster/queries.ts'
import { HouseholdChange, RosterHousehold } from '#server/roster/schemas.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('roster:write', 'Get a household', {
  operationId: 'getHousehold',
  description: 'With its accounts, scouts and checklist.',
  params: IdParams,
  responses: ok(RosterHousehold, 'The household', { 404: 'No such household' }),
  handler: ({ db, params }) => householdById(db, params.id),
})

export const PATCH = defineRoute('roster:write', 'Edit a household', {
  operationId: 'updateHousehold',
  description: '`{"active": false}` deactivates it: it drops off the family view.',
  person: true,
  params: IdParams,
  body: HouseholdChange,
  responses: ok(RosterHousehold, 'The household after the change', { 404: 'No such household' }),
  async handler({ db, caller, params, body, publicDataChanged }) {
    const household = await changeHousehold(db, caller, params.id, body)
    if (body.active !== undefined) await consentChanged(db, publicDataChanged)
    return household
  },
})
