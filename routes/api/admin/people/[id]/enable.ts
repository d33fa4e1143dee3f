// POST /api/admin/people/:id/enable: a disabled person may sign in again.
import { record } from '../../../../../server/history/record.ts'
import { targetPerson } from '../../../../../server/people/guards.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, parseId } from '../../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'people:manage',
  summary: 'Enable a disabled person',
  params: IdParams,
  async handler({ db, params, caller }) {
    const id = parseId(params.id)
    return db.transaction().execute(async (trx) => {
      const person = await targetPerson(trx, id)
      if (person.disabled_at) {
        await trx.updateTable('people').set({ disabled_at: null }).where('id', '=', id).execute()
        await record(trx, caller.actor, 'people.enable', `Enabled ${person.email}`)
      }
      return { id, email: person.email, disabled: false }
    })
  },
})
