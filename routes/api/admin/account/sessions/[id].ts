// DELETE /api/admin/account/sessions/:id: end one of your sessions (someone else's is 404).
import { notFound } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, parseId } from '../../../../../server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'account:self',
  summary: 'End one of your sessions',
  params: IdParams,
  async handler({ db, params, caller }) {
    const id = parseId(params.id)
    await db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('sessions').where('id', '=', id).where('person_id', '=', caller.person!.id).executeTakeFirst()
      if (!Number(gone.numDeletedRows)) throw notFound('No such session of yours')
      await record(trx, caller.actor, 'account.session_end', `Ended session #${id}`)
    })
    return { id, ended: true }
  },
})
