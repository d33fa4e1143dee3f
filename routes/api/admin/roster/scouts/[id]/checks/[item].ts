// PUT /api/admin/roster/scouts/:id/checks/:item: tick dues or health_form for this program year (who and when are kept).
import { notFound, unprocessable } from '../../../../../../../server/errors.ts'
import { record } from '../../../../../../../server/history/record.ts'
import { CHECK_ITEMS, type CheckItem, programYear } from '../../../../../../../server/roster/queries.ts'
import { defineRoute } from '../../../../../../../server/routes.ts'
import { nowIso, parseId, t } from '../../../../../../../server/schemas.ts'

export const PUT = defineRoute({
  auth: 'roster:write',
  person: true,
  summary: "Record this year's dues or health_form check; for health forms only the fact one was collected is kept",
  params: t.Object({ id: t.String(), item: t.String({ maxLength: 50 }) }),
  body: t.Object(
    { done: t.Boolean(), note: t.Optional(t.Union([t.String({ maxLength: 200 }), t.Null()])) },
    { additionalProperties: false },
  ),
  async handler({ db, params, body, caller }) {
    const id = parseId(params.id)
    if (!CHECK_ITEMS.includes(params.item as CheckItem)) throw unprocessable(`item: must be ${CHECK_ITEMS.join(' or ')}`)
    const item = params.item as CheckItem
    const { year, label } = await programYear(db)
    return db.transaction().execute(async (trx) => {
      const scout = await trx.selectFrom('scouts').select(['id', 'first_name']).where('id', '=', id).executeTakeFirst()
      if (!scout) throw notFound('No such scout')
      const check = { done: body.done ? 1 : 0, note: body.note ?? null, recorded_by: caller.actor, recorded_at: nowIso() }
      await trx
        .insertInto('checks')
        .values({ scout_id: id, year, item, ...check })
        .onConflict((oc) => oc.columns(['scout_id', 'year', 'item']).doUpdateSet(check))
        .execute()
      await record(
        trx,
        caller.actor,
        'roster.check',
        `${scout.first_name} (#${id}): ${item} ${body.done ? 'done' : 'not done'} for ${label}`,
      )
      return { scout_id: id, item, year, ...check, done: body.done }
    })
  },
})
