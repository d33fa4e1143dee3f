// PATCH /api/admin/roster/scouts/:id: edit a scout.
import { notFound, unprocessable } from '../../../../../../server/errors.ts'
import { record } from '../../../../../../server/history/record.ts'
import { defineRoute } from '../../../../../../server/routes.ts'
import { FirstName, scoutFields, UnitId } from '../../../../../../server/roster/schemas.ts'
import { IdParams, nowIso, parseId, t } from '../../../../../../server/schemas.ts'

export const PATCH = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Edit a scout (partial)',
  params: IdParams,
  body: t.Object({ first_name: t.Optional(FirstName), unit_id: t.Optional(UnitId), ...scoutFields }, { additionalProperties: false }),
  async handler({ db, params, body, caller }) {
    const id = parseId(params.id)
    return db.transaction().execute(async (trx) => {
      if (!(await trx.selectFrom('scouts').select('id').where('id', '=', id).executeTakeFirst())) throw notFound('No such scout')
      if (body.unit_id !== undefined && !(await trx.selectFrom('units').select('id').where('id', '=', body.unit_id).executeTakeFirst()))
        throw unprocessable(`unit_id: no unit ${body.unit_id}`)
      const row = await trx
        .updateTable('scouts')
        .set({ ...body, updated_at: nowIso() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'roster.scout_update', `Scout #${id} (${row.first_name}): ${Object.keys(body).join(', ')}`)
      return row
    })
  },
})
