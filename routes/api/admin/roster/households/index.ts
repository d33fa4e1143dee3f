// POST /api/admin/roster/households: a household from its fields, or `lead_id` alone to import a join-form lead.
import { conflict, unprocessable } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { householdById } from '../../../../../server/roster/queries.ts'
import { householdFields, ParentName } from '../../../../../server/roster/schemas.ts'
import { nowIso, t } from '../../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: 'Create a household (parent_name required), or import a lead with `lead_id` alone (409 if imported already)',
  body: t.Object(
    { parent_name: t.Optional(ParentName), ...householdFields, lead_id: t.Optional(t.Integer({ minimum: 1 })) },
    { additionalProperties: false },
  ),
  async handler({ db, body, caller, set }) {
    const { lead_id, ...fields } = body
    const id = await db.transaction().execute(async (trx) => {
      const now = nowIso()
      let values
      if (lead_id !== undefined) {
        if (Object.keys(fields).length) throw unprocessable('lead_id: send it alone; the household is copied from the lead')
        const lead = await trx.selectFrom('leads').selectAll().where('id', '=', lead_id).executeTakeFirst()
        if (!lead) throw unprocessable(`lead_id: no lead ${lead_id}`)
        if (await trx.selectFrom('households').select('id').where('lead_id', '=', lead_id).executeTakeFirst())
          throw conflict(`Lead ${lead_id} was already imported`)
        values = { parent_name: lead.parent_name, email: lead.email, phone: lead.phone, notes: lead.message, lead_id }
      } else {
        if (!fields.parent_name?.trim()) throw unprocessable('parent_name: is required')
        values = { ...fields, parent_name: fields.parent_name.trim() }
      }
      const row = await trx
        .insertInto('households')
        .values({ ...values, active: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await record(
        trx,
        caller.actor,
        'roster.household_create',
        `Household #${row.id} (${values.parent_name})${lead_id ? ` imported from lead #${lead_id}` : ''}`,
      )
      return row.id
    })
    set.status = 201
    return householdById(db, id)
  },
})
