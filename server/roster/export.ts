// The roster's CSV export: one line per scout, for a spreadsheet.
import { scoutLogs } from '../attendance/log.ts'
import { csvDocument } from '../csv.ts'
import type { Executor } from '../db/database.ts'
import { roster, type RosterFilters } from './queries.ts'

/**
 * The roster as CSV, one line per scout of an active household, with this year's checklist and the camping nights,
 * service hours and miles of their log this program year, and the last day they came to anything; the filters as for
 * the roster. It starts with a byte-order mark, so spreadsheets read it as UTF-8 and keep accented names.
 */
export async function rosterCsv(db: Executor, filters: RosterFilters = {}) {
  const { unit, year, households } = await roster(db, filters)
  const active = households.filter((h) => h.active)
  const logs = await scoutLogs(
    db,
    active.flatMap((h) => h.scouts.map((s) => s.id)),
  )
  const rows = active.flatMap((h) =>
    h.scouts.map((s) => [
      s.first_name,
      s.last_name,
      s.unit_slug,
      s.den,
      s.org_member_id,
      h.parent_name,
      h.email,
      h.phone,
      h.second_parent,
      h.second_email,
      s.checks.dues.done ? 'yes' : 'no',
      s.checks.health_form.done ? 'yes' : 'no',
      s.checks.health_form.expires_on ?? '',
      logs.get(s.id)!.totals.program_year.nights,
      logs.get(s.id)!.totals.program_year.service_hours,
      logs.get(s.id)!.totals.program_year.miles,
      logs.get(s.id)!.entries[0]?.date ?? '',
    ]),
  )
  const header = [
    'first_name',
    'last_name',
    'unit',
    'den',
    'org_member_id',
    'parent',
    'email',
    'phone',
    'second_parent',
    'second_parent_email',
  ]
  return {
    filename: `roster-${unit?.slug ?? 'all'}-${year.year}.csv`,
    csv: `\uFEFF${csvDocument(
      [
        ...header,
        `dues_${year.year}`,
        `health_form_${year.year}`,
        'health_form_until',
        `nights_${year.year}`,
        `service_hours_${year.year}`,
        `miles_${year.year}`,
        'last_attended',
      ],
      rows,
    )}`,
  }
}
