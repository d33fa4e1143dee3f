// DELETE /api/admin/keys/:id: revoke one of the caller's keys; the row stays.
import { conflict, notFound } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { keyView } from '../../../../server/keys/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { IdParams, nowIso, parseId } from '../../../../server/schemas.ts'

export const DELETE = defineRoute({
  auth: 'apikeys:own',
  summary: "Revoke one of the caller's keys (another person's key is 404)",
  params: IdParams,
  async handler({ db, caller, params }) {
    const id = parseId(params.id)
    return db.transaction().execute(async (trx) => {
      const key = await trx
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', id)
        .where('person_id', '=', caller.person!.id)
        .executeTakeFirst()
      if (!key) throw notFound('No such key')
      if (key.revoked_at) throw conflict('The key is already revoked')
      const revoked = await trx
        .updateTable('api_keys')
        .set({ revoked_at: nowIso() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'keys.revoke', `Revoked key "${key.label}" #${id}`)
      return { key: keyView(revoked) }
    })
  },
})
