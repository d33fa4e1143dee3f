// GET /api/admin/units: the own units the caller may edit (a unit leader: theirs; global roles: all).
import { defineRoute } from '../../../../server/routes.ts'
import { editableUnitIds } from '../../../../server/people/queries.ts'

export const GET = defineRoute({
  auth: 'unit:write_own',
  summary: 'Own units the caller may edit',
  async handler({ db, caller }) {
    const ids = await editableUnitIds(db, caller.person)
    const units = ids.length ? await db.selectFrom('units').selectAll().where('id', 'in', ids).orderBy('id').execute() : []
    return { units }
  },
})
