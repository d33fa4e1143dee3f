// GET/POST /api/admin/nearby: the editing list of nearby units (inactive rows too), and adding one.
import { record } from '../../../../server/history/record.ts'
import { Name, nearbyFields, today, UnitType } from '../../../../server/nearby/schemas.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso, t } from '../../../../server/schemas.ts'

export const GET = defineRoute({
  auth: 'nearby:write',
  summary: 'Every nearby unit, inactive ones included',
  handler: async ({ db }) => ({
    nearby: await db.selectFrom('nearby_units').selectAll().orderBy('active', 'desc').orderBy('name').execute(),
  }),
})

export const POST = defineRoute({
  auth: 'nearby:write',
  summary: 'Add a nearby unit (422 for a bad unit_type)',
  body: t.Object({ name: Name, unit_type: UnitType, ...nearbyFields }, { additionalProperties: false }),
  async handler({ db, body, caller, set, publicDataChanged }) {
    const now = nowIso()
    const row = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('nearby_units')
        .values({ ...body, verified_at: body.verified_at ?? (await today(trx)), active: 1, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'nearby.create', `Added ${inserted.unit_type} "${inserted.name}" #${inserted.id}`)
      return inserted
    })
    publicDataChanged()
    set.status = 201
    return row
  },
})
