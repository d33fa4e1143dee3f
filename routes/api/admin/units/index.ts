// GET /api/admin/units: the own units the caller may edit (a unit leader: theirs; global roles: all).
import { defineRoute, ok } from '#server/routes.ts'
import { listEditableUnits, UnitList } from '#server/units/units.ts'

export const GET = defineRoute('unit:write_own', 'List the units you may edit', {
  operationId: 'listUnits',
  description: 'A pack leader gets the pack; admins, owners and the break-glass token get both.',
  responses: ok(UnitList, 'Your units'),
  handler: ({ db, caller }) => listEditableUnits(db, caller),
})
