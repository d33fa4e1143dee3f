// `bun server/cli.ts roster-import FILE [--unit pack|troop] [--apply]`: what the admin page's preview shows, in lines
// (nothing stored), or with --apply the file written at once in one transaction with one action-log entry.
import { existsSync, readFileSync } from 'node:fs'
import type { Db } from '../db/client.ts'
import { HttpError } from '../errors.ts'
import { importNow, planFile, type Importer } from './import.ts'

const CLI: Importer = { led: null, actor: 'cli', personId: null }

/** The lines to print and the exit code: 0 done, 1 refused (no such file, not a roster CSV, unknown unit). */
export async function rosterImportCommand(db: Db, file: string | undefined, unit: string | undefined, applyIt: boolean) {
  if (!file) return { code: 2, lines: ['roster-import needs the path of a CSV file'] }
  if (!existsSync(file)) return { code: 1, lines: [`There is no file ${file}`] }
  const csv = readFileSync(file, 'utf8')
  try {
    if (applyIt) {
      const done = await importNow(db, CLI, csv, unit)
      return {
        code: 0,
        lines: [
          ...describe(done.plan, done.warnings),
          `Applied: ${done.created.households} households and ${done.created.scouts} scouts added, ` +
            `${done.updated.households} households and ${done.updated.scouts} scouts updated, ${done.skipped} bad rows skipped`,
        ],
      }
    }
    const plan = await planFile(db, CLI, csv, unit)
    return { code: 0, lines: [...describe(plan, plan.warnings), 'Nothing was written: run again with --apply to import it'] }
  } catch (error) {
    if (error instanceof HttpError) return { code: 1, lines: [error.detail] }
    throw error
  }
}

type Planned = Awaited<ReturnType<typeof planFile>>
function describe(plan: Pick<Planned, 'households' | 'scouts' | 'bad_rows' | 'new_dens'>, warnings: Planned['warnings']) {
  const count = (rows: { action: string }[], action: string) => rows.filter((r) => r.action === action).length
  return [
    `Households: ${count(plan.households, 'create')} new, ${count(plan.households, 'update')} to update, ${count(plan.households, 'unchanged')} unchanged`,
    `Scouts: ${count(plan.scouts, 'create')} new, ${count(plan.scouts, 'update')} to update, ${count(plan.scouts, 'unchanged')} unchanged`,
    ...(plan.new_dens.length ? [`New dens and patrols: ${plan.new_dens.map((d) => `${d.den} (${d.unit})`).join(', ')}`] : []),
    ...plan.bad_rows.map((b) => `Line ${b.line}: not imported, ${b.reason}`),
    ...warnings.map((w) => (w.line ? `Line ${w.line}: ${w.message}` : w.message)),
  ]
}
