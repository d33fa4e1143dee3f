// Roster import: a preview (the file read and checked against the roster, nothing written, kept an hour), then its
// apply: every good row written in one transaction with one action-log entry, the plan worked out again inside it
// so it meets the roster as it is then. The command line applies a file straight away the same way.
import { randomBytes } from 'node:crypto'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write, type Trx } from '../db/write.ts'
import { conflict, forbidden, gone, notFound, unprocessable } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { findUnit } from '../units/units.ts'
import { planImport, type Plan } from './import-plan.ts'
import { readRosterCsv, type ImportRow, type ImportWarning } from './import-read.ts'

export const PREVIEW_MINUTES = 60

/** Who imports: the units they may write (null: all), how the log names them, and their person (null: the command line). */
export interface Importer {
  led: Set<number> | null
  actor: string
  personId: number | null
}

/** The file read, its default unit found and the caller's right to it checked (403 `unit_out_of_scope`). */
async function readFor(db: Executor, importer: Importer, csv: string, unit?: string) {
  const read = readRosterCsv(csv)
  const slug = unit ?? read.unit
  const found = slug ? await findUnit(db, slug) : null
  if (slug && !found) throw unprocessable(`unit: no unit ${slug}`, undefined, 'unit')
  if (found && importer.led && !importer.led.has(found.id))
    throw forbidden(`unit: the ${found.name} is a unit you do not lead`, 'unit_out_of_scope')
  return { rows: read.rows, warnings: read.warnings, unitId: found?.id ?? null }
}

const answer = (plan: Plan, warnings: ImportWarning[]) => ({
  households: plan.households,
  scouts: plan.scouts,
  bad_rows: plan.bad_rows,
  new_dens: plan.new_dens,
  warnings,
})

/** Reads the file and says what applying it would do; kept an hour under a random id. Nothing in the roster changes. */
export async function previewImport(db: Db, importer: Importer, csv: string, unit?: string) {
  const { rows, warnings, unitId } = await readFor(db, importer, csv, unit)
  const plan = await planImport(db, rows, unitId, importer)
  const id = randomBytes(16).toString('base64url')
  const now = new Date()
  const expires_at = new Date(now.getTime() + PREVIEW_MINUTES * 60_000).toISOString()
  // A preview is not a change to the roster: it is stored without an action-log entry, like a sign-in ticket.
  await db
    .insertInto('roster_imports')
    .values({
      id,
      person_id: importer.personId,
      actor: importer.actor,
      unit_id: unitId,
      rows: JSON.stringify(rows),
      warnings: JSON.stringify(warnings),
      created_at: now.toISOString(),
      expires_at,
    })
    .execute()
  return { id, expires_at, ...answer(plan, warnings) }
}

/** Applies a preview: 404 for none (or another person's), 410 `import_expired` after an hour, 409 `import_applied` twice. */
export async function applyPreview(db: Db, importer: Importer, id: string) {
  return write(db, async (trx) => {
    const preview = await trx.selectFrom('roster_imports').selectAll().where('id', '=', id).executeTakeFirst()
    if (!preview || preview.person_id !== importer.personId) throw notFound('No such import preview')
    if (preview.applied_at) throw conflict('This import was applied already; preview the file again to import it again', 'import_applied')
    if (preview.expires_at <= nowIso()) throw gone('This preview is more than an hour old; preview the file again', 'import_expired')
    await trx.updateTable('roster_imports').set({ applied_at: nowIso() }).where('id', '=', id).execute()
    return applyRows(trx, importer, JSON.parse(preview.rows) as ImportRow[], preview.unit_id)
  })
}

/** Reads a file and applies it at once (the command line's --apply); the plan with what was done. */
export async function importNow(db: Db, importer: Importer, csv: string, unit?: string) {
  const { rows, warnings, unitId } = await readFor(db, importer, csv, unit)
  return { warnings, ...(await write(db, (trx) => applyRows(trx, importer, rows, unitId))) }
}

/** Reads a file and says what applying it would do, storing nothing (the command line without --apply). */
export async function planFile(db: Db, importer: Importer, csv: string, unit?: string) {
  const { rows, warnings, unitId } = await readFor(db, importer, csv, unit)
  return answer(await planImport(db, rows, unitId, importer), warnings)
}

async function applyRows(trx: Trx, importer: Importer, rows: ImportRow[], unitId: number | null) {
  const plan = await planImport(trx, rows, unitId, importer)
  const now = nowIso()
  const ids: number[] = []
  const done = { created: { households: 0, scouts: 0 }, updated: { households: 0, scouts: 0 }, skipped: plan.bad_rows.length }
  for (const h of plan.households) {
    const fields = {
      parent_name: h.parent_name,
      email: h.email,
      phone: h.phone,
      second_parent: h.second_parent,
      second_email: h.second_email,
    }
    if (h.action === 'create') {
      const row = await trx
        .insertInto('households')
        .values({ ...fields, active: 1, created_at: now, updated_at: now, created_by_person_id: importer.personId })
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.push(row.id)
      done.created.households++
      continue
    }
    ids.push(h.id!)
    if (h.action === 'update') {
      const changed = Object.fromEntries(h.changes.map((k) => [k, fields[k as keyof typeof fields]]))
      await trx
        .updateTable('households')
        .set({ ...changed, updated_at: now })
        .where('id', '=', h.id!)
        .execute()
      done.updated.households++
    }
  }
  for (const sc of plan.scouts) {
    const fields = { first_name: sc.first_name, last_name: sc.last_name, unit_id: sc.unit_id, den: sc.den, org_member_id: sc.org_member_id }
    if (sc.action === 'create') {
      await trx
        .insertInto('scouts')
        .values({ ...fields, household_id: ids[sc.household], created_at: now, updated_at: now })
        .execute()
      done.created.scouts++
    } else if (sc.action === 'update') {
      const changed = Object.fromEntries(sc.changes.map((k) => [k, fields[k as keyof typeof fields]]))
      await trx
        .updateTable('scouts')
        .set({ ...changed, updated_at: now })
        .where('id', '=', sc.id!)
        .execute()
      done.updated.scouts++
    }
  }
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`
  await record(
    trx,
    importer.actor,
    'roster.import',
    `Roster import: ${n(done.created.households, 'household')} and ${n(done.created.scouts, 'scout')} added, ` +
      `${n(done.updated.households, 'household')} and ${n(done.updated.scouts, 'scout')} updated, ${n(done.skipped, 'bad row')} skipped`,
  )
  return { ...done, plan }
}
