// GET/PATCH /api/admin/roster/households/:id: one household; edit its fields or deactivate it.
import { notFound } from '../../../../../../server/errors.ts'
import { record } from '../../../../../../server/history/record.ts'
import { defineRoute } from '../../../../../../server/routes.ts'
import { householdById } from '../../../../../../server/roster/queries.ts'
import { householdFields, ParentName } from '../../../../../../server/roster/schemas.ts'
import { IdParams, nowIso, parseId, t } from '../../../../../../server/schemas.ts'

export const GET = defineRoute({
  auth: 'roster:write',
  summary: 'One household with its accounts, scouts and checklist',
  params: IdParams,
  handler: async ({ db, params }) => householdById(db, parseId(params.id)),
})

export const PATCH = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Edit a household; {"active": false} deactivates it (it drops off the family view)',
  params: IdParams,
  body: t.Object(
    { parent_name: t.Optional(ParentName), ...householdFields, active: t.Optional(t.Boolean()) },
    { additionalProperties: false },
  ),
  async handler({ db, params, body, caller }) {
    const id = parseId(params.id)
    await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('households').select(['id', 'parent_name']).where('id', '=', id).executeTakeFirst()
      if (!current) throw notFound('No such household')
      const { active, ...fields } = body
      await trx
        .updateTable('households')
        .set({ ...fields, ...(active === undefined ? {} : { active: active ? 1 : 0 }), updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
      const what = active === false ? 'deactivated' : active === true ? 'reactivated' : `edited ${Object.keys(fields).join(', ')}`
      await record(trx, caller.actor, 'roster.household_update', `Household #${id} (${current.parent_name}) ${what}`)
    })
    return householdById(db, id)
  },
})
