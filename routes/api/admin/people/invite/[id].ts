// DELETE /api/admin/people/invite/:id: revoke an open invite (a used, revoked or unknown one is 404).
import { notFound } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { assertMayGrant, type UnitGrant } from '../../../../../server/people/grants.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, nowIso, parseId } from '../../../../../server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Revoke an open invite (repeat 404)',
  params: IdParams,
  async handler({ db, params, caller }) {
    const id = parseId(params.id)
    const invite = await db
      .selectFrom('invites')
      .selectAll()
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (!invite) throw notFound('No open invite with this id')
    // You may take back only what you could have granted.
    await assertMayGrant(db, caller, invite.global_role, JSON.parse(invite.units) as UnitGrant[])
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('invites').set({ revoked_at: nowIso() }).where('id', '=', id).execute()
      await record(trx, caller.actor, 'people.invite_revoke', `Revoked the invite of ${invite.email}`)
    })
    return { id, email: invite.email, revoked: true }
  },
})
