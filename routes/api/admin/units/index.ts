// GET /api/admin/units: the own units the caller may edit (a unit leader: theirs; global roles: all).
import { defineRoute } from '#server/routes.ts'
import { listEditableUnits, UnitList } from '#server/units/units.ts'

export const GET = defineRoute({
  auth: 'unit:write_own',
  summary: 'Own units the caller may edit',
  responses: { 200: { description: 'A pack leader gets the pack; admins, owners and the break-glass token get both', schema: UnitList } },
  handler: ({ db, caller }) => listEditableUnits(db, caller),
})
