// PUT /api/admin/roster/households/:id/people: the full list of accounts linked to a household.
import { notFound, unprocessable } from '../../../../../../server/errors.ts'
import { record } from '../../../../../../server/history/record.ts'
import { defineRoute } from '../../../../../../server/routes.ts'
import { assertMayLinkHousehold, householdById } from '../../../../../../server/roster/queries.ts'
import { IdParams, parseId, t } from '../../../../../../server/schemas.ts'

export const PUT = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Replace the accounts linked to a household in a unit you lead (unknown person 422)',
  params: IdParams,
  body: t.Object({ person_ids: t.Array(t.Integer({ minimum: 1 }), { maxItems: 20, uniqueItems: true }) }, { additionalProperties: false }),
  async handler({ db, params, body, caller }) {
    const id = parseId(params.id)
    await db.transaction().execute(async (trx) => {
      const household = await trx.selectFrom('households').select(['id', 'parent_name']).where('id', '=', id).executeTakeFirst()
      if (!household) throw notFound('No such household')
      await assertMayLinkHousehold(trx, caller, id)
      const known = body.person_ids.length ? await trx.selectFrom('people').select('id').where('id', 'in', body.person_ids).execute() : []
      const unknown = body.person_ids.filter((p) => !known.some((k) => k.id === p))
      if (unknown.length) throw unprocessable(`person_ids: no person ${unknown.join(', ')}`)
      await trx.deleteFrom('household_people').where('household_id', '=', id).execute()
      for (const person_id of body.person_ids) await trx.insertInto('household_people').values({ household_id: id, person_id }).execute()
      await record(
        trx,
        caller.actor,
        'roster.household_people',
        `Household #${id} (${household.parent_name}) linked to ${body.person_ids.length} accounts`,
      )
    })
    return householdById(db, id)
  },
})
