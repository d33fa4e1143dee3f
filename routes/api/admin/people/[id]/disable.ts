// POST /api/admin/people/:id/disable: sessions end, keys stop, open reset links close; the row stays.
import { endSessionsOf } from '../../../../../server/auth/sessions.ts'
import { record } from '../../../../../server/history/record.ts'
import { assertAnotherOwner, assertNotSelf, closeResetLinks, targetPerson } from '../../../../../server/people/guards.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, nowIso, parseId } from '../../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'people:manage',
  summary: 'Disable a person (owner only; not yourself; not the last owner)',
  params: IdParams,
  async handler({ db, params, caller }) {
    const id = parseId(params.id)
    return db.transaction().execute(async (trx) => {
      const person = await targetPerson(trx, id)
      assertNotSelf(caller, id)
      if (person.disabled_at) return { id, email: person.email, disabled: true }
      if (person.global_role === 'owner') await assertAnotherOwner(trx, id, 'Disabling this owner')
      const now = nowIso()
      await trx.updateTable('people').set({ disabled_at: now }).where('id', '=', id).execute()
      await endSessionsOf(trx, id)
      await closeResetLinks(trx, id, now)
      await record(trx, caller.actor, 'people.disable', `Disabled ${person.email}`)
      return { id, email: person.email, disabled: true }
    })
  },
})
