// PATCH/DELETE /api/admin/nearby/:id: edit a nearby unit (verified today unless a date is sent); deactivate it.
import { conflict, notFound } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { Name, nearbyFields, today, UnitType } from '../../../../server/nearby/schemas.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { IdParams, nowIso, parseId, t } from '../../../../server/schemas.ts'

export const PATCH = defineRoute({
  auth: 'nearby:write',
  summary: 'Edit a nearby unit; verified_at becomes today unless the payload carries a date',
  params: IdParams,
  body: t.Object(
    { name: t.Optional(Name), unit_type: t.Optional(UnitType), active: t.Optional(t.Union([t.Literal(0), t.Literal(1)])), ...nearbyFields },
    { additionalProperties: false },
  ),
  async handler({ db, params, body, caller, publicDataChanged }) {
    const id = parseId(params.id)
    const row = await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('nearby_units').select(['id', 'name']).where('id', '=', id).executeTakeFirst()
      if (!current) throw notFound('No such nearby unit')
      const updated = await trx
        .updateTable('nearby_units')
        .set({ ...body, verified_at: body.verified_at === undefined ? await today(trx) : body.verified_at, updated_at: nowIso() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'nearby.update', `Updated "${updated.name}" #${id}: ${Object.keys(body).join(', ') || 'verified'}`)
      return updated
    })
    publicDataChanged()
    return row
  },
})

export const DELETE = defineRoute({
  auth: 'nearby:write',
  summary: 'Deactivate a nearby unit (row kept; 409 if already inactive)',
  params: IdParams,
  async handler({ db, params, caller, publicDataChanged }) {
    const id = parseId(params.id)
    const row = await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('nearby_units').select(['id', 'name', 'active']).where('id', '=', id).executeTakeFirst()
      if (!current) throw notFound('No such nearby unit')
      if (!current.active) throw conflict('The nearby unit is already inactive')
      const updated = await trx
        .updateTable('nearby_units')
        .set({ active: 0, updated_at: nowIso() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'nearby.deactivate', `Deactivated "${current.name}" #${id}`)
      return updated
    })
    publicDataChanged()
    return row
  },
})
