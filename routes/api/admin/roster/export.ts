// GET /api/admin/roster/export?unit=: the roster as CSV, one line per scout, for the unit's records.
import { t } from '../../../../server/schemas.ts'
import { csvDocument } from '../../../../server/csv.ts'
import { notFound } from '../../../../server/errors.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { findUnit, householdsView, programYear } from '../../../../server/roster/queries.ts'

export const GET = defineRoute({
  auth: 'roster:write',
  summary: "The roster as CSV, one line per scout with this year's checklist (`unit` narrows it)",
  query: t.Object({ unit: t.Optional(t.String({ maxLength: 50 })) }),
  async handler({ db, query, set }) {
    const unit = query.unit ? await findUnit(db, query.unit) : null
    if (query.unit && !unit) throw notFound(`No unit ${query.unit}`)
    const year = await programYear(db)
    const ids = (await db.selectFrom('households').select('id').where('active', '=', 1).orderBy('parent_name').execute()).map((h) => h.id)
    const rows = (await householdsView(db, ids, year.year)).flatMap((h) =>
      h.scouts
        .filter((s) => !unit || s.unit_id === unit.id)
        .map((s) => [
          s.first_name,
          s.last_name,
          s.unit_slug,
          s.den,
          s.org_member_id,
          h.parent_name,
          h.email,
          h.phone,
          h.second_parent,
          s.checks.dues.done ? 'yes' : 'no',
          s.checks.health_form.done ? 'yes' : 'no',
        ]),
    )
    set.headers['content-type'] = 'text/csv; charset=utf-8'
    set.headers['content-disposition'] = `attachment; filename="roster-${unit?.slug ?? 'all'}-${year.year}.csv"`
    return csvDocument(
      [
        'first_name',
        'last_name',
        'unit',
        'den',
        'org_member_id',
        'parent',
        'email',
        'phone',
        'second_parent',
        `dues_${year.year}`,
        `health_form_${year.year}`,
      ],
      rows,
    )
  },
})
