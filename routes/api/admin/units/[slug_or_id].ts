// PATCH /api/admin/units/:slug_or_id: a leader edits the meeting details of a unit in their scope.
import { defineRoute } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { changeUnit, SlugOrId, UnitAnswer, UnitChange } from '#server/units/units.ts'

export const PATCH = defineRoute({
  auth: 'unit:write_own',
  summary: "Change a unit's name, number or meeting day, time and place (partial)",
  params: t.Object({ slug_or_id: SlugOrId }),
  body: UnitChange,
  responses: {
    200: { description: 'The unit after the change (also when nothing changed)', schema: UnitAnswer },
    403: 'The unit is outside your scope',
    404: 'No such unit',
  },
  async handler({ db, caller, params, body, publicDataChanged }) {
    const { unit, changed } = await changeUnit(db, caller, params.slug_or_id, body)
    if (changed) publicDataChanged()
    return { unit }
  },
})
