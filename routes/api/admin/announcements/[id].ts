// DELETE /api/admin/announcements/:id: revoke; the row is kept with revoked_at set.
import { announcementsWithState } from '../../../../server/announcements/state.ts'
import { conflict, notFound } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { IdParams, nowIso, parseId } from '../../../../server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'announcements:write',
  summary: 'Revoke an announcement (409 if already revoked)',
  params: IdParams,
  async handler({ db, params, caller, publicDataChanged }) {
    const id = parseId(params.id)
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('announcements').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst()
      if (!row) throw notFound('No such announcement')
      if (row.revoked_at) throw conflict('The announcement is already revoked')
      await trx.updateTable('announcements').set({ revoked_at: nowIso() }).where('id', '=', id).execute()
      await record(trx, caller.actor, 'announcements.revoke', `Revoked announcement #${id}`)
    })
    publicDataChanged()
    return { announcement: (await announcementsWithState(db)).find((a) => a.id === id) }
  },
})
