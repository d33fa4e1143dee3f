// GET /api/admin/roster?unit=: households with their scouts and this year's checklist, and the unit's dens.
import { t } from '../../../../server/schemas.ts'
import { notFound } from '../../../../server/errors.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { findUnit, householdsView, programYear } from '../../../../server/roster/queries.ts'

export const GET = defineRoute({
  auth: 'roster:write',
  summary: "Households with scouts and this program year's checklist; `unit` (slug or id) narrows to one unit",
  query: t.Object({ unit: t.Optional(t.String({ maxLength: 50 })) }),
  async handler({ db, query }) {
    const unit = query.unit ? await findUnit(db, query.unit) : null
    if (query.unit && !unit) throw notFound(`No unit ${query.unit}`)
    let q = db.selectFrom('households').select('households.id').orderBy('households.active', 'desc').orderBy('households.parent_name')
    if (unit)
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('scouts')
            .select('scouts.id')
            .whereRef('scouts.household_id', '=', 'households.id')
            .where('scouts.unit_id', '=', unit.id),
        ),
      )
    const ids = (await q.execute()).map((r) => r.id)
    const year = await programYear(db)
    let households = await householdsView(db, ids, year.year)
    if (unit) households = households.map((h) => ({ ...h, scouts: h.scouts.filter((s) => s.unit_id === unit.id) }))
    let dens = db.selectFrom('scouts').select('den').distinct().where('den', 'is not', null).orderBy('den')
    if (unit) dens = dens.where('unit_id', '=', unit.id)
    const units = await db.selectFrom('units').select(['id', 'slug', 'name']).orderBy('id').execute()
    return { unit: unit ?? null, units, year, households, dens: (await dens.execute()).map((d) => d.den) }
  },
})
