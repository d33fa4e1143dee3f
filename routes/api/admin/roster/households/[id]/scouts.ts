// POST /api/admin/roster/households/:id/scouts: add a scout to a household.
import { notFound, unprocessable } from '../../../../../../server/errors.ts'
import { record } from '../../../../../../server/history/record.ts'
import { defineRoute } from '../../../../../../server/routes.ts'
import { FirstName, scoutFields, UnitId } from '../../../../../../server/roster/schemas.ts'
import { IdParams, nowIso, parseId, t } from '../../../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Add a scout (first_name and unit_id required; org_member_id 6 to 12 digits)',
  params: IdParams,
  body: t.Object({ first_name: FirstName, unit_id: UnitId, ...scoutFields }, { additionalProperties: false }),
  async handler({ db, params, body, caller, set }) {
    const householdId = parseId(params.id)
    const scout = await db.transaction().execute(async (trx) => {
      if (!(await trx.selectFrom('households').select('id').where('id', '=', householdId).executeTakeFirst()))
        throw notFound('No such household')
      if (!(await trx.selectFrom('units').select('id').where('id', '=', body.unit_id).executeTakeFirst()))
        throw unprocessable(`unit_id: no unit ${body.unit_id}`)
      const now = nowIso()
      const row = await trx
        .insertInto('scouts')
        .values({ ...body, first_name: body.first_name.trim(), household_id: householdId, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'roster.scout_create', `Scout #${row.id} (${row.first_name}) in household #${householdId}`)
      return row
    })
    set.status = 201
    return scout
  },
})
