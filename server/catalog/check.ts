// catalog-check: validates every season file (see seasonFiles) and prints `file: /pointer: message`, errors and warnings apart.
import path from 'node:path'
import { schemaFileText } from './schema.ts'
import { oneLine, type Problem, type ProblemCounts, validateSeason } from './validate.ts'
import { SCHEMA_FILE, seasonFiles } from './loader.ts'

export interface CheckReport {
  errors: string[]
  warnings: string[]
  /** Every error and warning, the ones a long list leaves out ("… and N more") included. */
  counts: ProblemCounts
}

export async function checkCatalog(dir: string): Promise<CheckReport> {
  const report: CheckReport = { errors: [], warnings: [], counts: { errors: 0, warnings: 0 } }
  const line = (file: string, p: Problem) => `${oneLine(file)}: ${oneLine(p.pointer || '/')}: ${p.message}`
  for (const name of seasonFiles(dir)) {
    const file = path.join(path.relative(process.cwd(), dir) || '.', name)
    const { problems, counts } = validateSeason(name, await Bun.file(path.join(dir, name)).bytes())
    for (const p of problems) (p.level === 'error' ? report.errors : report.warnings).push(line(file, p))
    report.counts.errors += counts.errors
    report.counts.warnings += counts.warnings
  }
  const schemaPath = path.join(dir, SCHEMA_FILE)
  const schemaFile = Bun.file(schemaPath)
  if (!(await schemaFile.exists()) || (await schemaFile.text()) !== schemaFileText()) {
    report.counts.errors++
    report.errors.push(
      `${path.relative(process.cwd(), schemaPath)}: /: differs from the TypeBox source; run \`bun server/cli.ts catalog-schema\``,
    )
  }
  return report
}
