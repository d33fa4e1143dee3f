// GET/PATCH /api/admin/units/:slug_or_id: one unit the caller may edit; a leader edits its meeting details.
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { changeUnit, editableUnit, SlugOrId, UnitChange, UnitView } from '#server/units/units.ts'

const params = t.Object({ slug_or_id: SlugOrId })
const refusals = { 403: 'The unit is outside your scope', 404: 'No such unit' }

export const GET = defineRoute('unit:write_own', 'Get a unit you may edit', {
  operationId: 'getUnit',
  description: 'As the list of your units shows it.',
  params,
  responses: ok(UnitView, 'The unit', refusals),
  handler: ({ db, caller, params }) => editableUnit(db, caller, params.slug_or_id),
})

export const PATCH = defineRoute('unit:write_own', "Change a unit's meeting details", {
  operationId: 'updateUnit',
  description: 'Name, number, meeting day, time and place (partial); 200 also when nothing changes.',
  params,
  body: UnitChange,
  responses: ok(UnitView, 'The unit after the change', refusals),
  async handler({ db, caller, params, body, publicDataChanged }) {
    const { unit, changed } = await changeUnit(db, caller, params.slug_or_id, body)
    if (changed) publicDataChanged()
    return unit
  },
})
