// PATCH /api/admin/units/:slug_or_id: a leader edits the meeting details of a unit in their scope.
import { forbidden, notFound } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { editableUnitIds } from '../../../../server/people/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { nowIso, t, Time24, Weekday } from '../../../../server/schemas.ts'

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Optional(t.Union([schema, t.Null()]))

export const PATCH = defineRoute({
  auth: 'unit:write_own',
  summary: "Change a unit's name, number or meeting day, time and place (partial)",
  params: t.Object({ slug_or_id: t.String({ maxLength: 50 }) }),
  body: t.Object(
    {
      name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
      number: nullable(t.String({ maxLength: 20 })),
      meeting_day: nullable(Weekday),
      meeting_time: nullable(Time24),
      meeting_place: nullable(t.String({ maxLength: 200 })),
    },
    { additionalProperties: false },
  ),
  async handler({ db, caller, params, body, publicDataChanged }) {
    const column = /^\d+$/.test(params.slug_or_id) ? 'id' : 'slug'
    const value = column === 'id' ? Number(params.slug_or_id) : params.slug_or_id
    const unit = await db
      .selectFrom('units')
      .selectAll()
      .where(column, '=', value as never)
      .executeTakeFirst()
    if (!unit) throw notFound('No such unit')
    if (!(await editableUnitIds(db, caller.person)).includes(unit.id)) throw forbidden('This unit is outside your scope')
    const changes = Object.fromEntries(Object.entries(body).filter(([k, v]) => unit[k as keyof typeof unit] !== v))
    if (!Object.keys(changes).length) return { unit }
    const updated = await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('units')
        .set({ ...changes, updated_at: nowIso() })
        .where('id', '=', unit.id)
        .returningAll()
        .executeTakeFirstOrThrow()
      const summary = Object.entries(changes).map(([k, v]) => `${k} ${JSON.stringify(unit[k as keyof typeof unit])} → ${JSON.stringify(v)}`)
      await record(trx, caller.actor, 'units.update', `${unit.slug}: ${summary.join('; ')}`)
      return row
    })
    publicDataChanged()
    return { unit: updated }
  },
})
