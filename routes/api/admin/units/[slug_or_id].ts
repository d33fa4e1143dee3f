// PATCH /api/admin/units/:slug_or_id: a leader edits the meeting details of a unit in their scope.
import { defineRoute, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { changeUnit, SlugOrId, UnitAnswer, UnitChange } from '#server/units/units.ts'

export const PATCH = defineRoute('unit:write_own', "Change a unit's meeting details", {
  description: 'Name, number, meeting day, time and place (partial); 200 also when nothing changes.',
  params: t.Object({ slug_or_id: SlugOrId }),
  body: UnitChange,
  responses: ok(UnitAnswer, 'The unit after the change', { 403: 'The unit is outside your scope', 404: 'No such unit' }),
  async handler({ db, caller, params, body, publicDataChanged }) {
    const { unit, changed } = await changeUnit(db, caller, params.slug_or_id, body)
    if (changed) publicDataChanged()
    return { unit }
  },
})
