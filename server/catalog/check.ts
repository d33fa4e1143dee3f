// catalog-check: validates every season file and prints `file: /pointer: message`, errors and warnings apart.
import path from 'node:path'
import { schemaFileText } from './schema.ts'
import { type Problem, validateSeason } from './validate.ts'
import { seasonFiles } from './loader.ts'

export interface CheckReport {
  errors: string[]
  warnings: string[]
}

export async function checkCatalog(dir: string): Promise<CheckReport> {
  const report: CheckReport = { errors: [], warnings: [] }
  const line = (file: string, p: Problem) => `${file}: ${p.pointer || '/'}: ${p.message}`
  for (const name of seasonFiles(dir)) {
    const file = path.join(path.relative(process.cwd(), dir) || '.', name)
    for (const p of validateSeason(name, await Bun.file(path.join(dir, name)).text()).problems)
      (p.level === 'error' ? report.errors : report.warnings).push(line(file, p))
  }
  const schemaPath = path.join(dir, 'season.schema.json')
  const schemaFile = Bun.file(schemaPath)
  if (!(await schemaFile.exists()) || (await schemaFile.text()) !== schemaFileText())
    report.errors.push(
      `${path.relative(process.cwd(), schemaPath)}: /: differs from the TypeBox source; run \`bun server/cli.ts catalog-schema\``,
    )
  return report
}
