// The admin client's route table (site/src/lib/route-table.ts), written from the route registry: each method and
// documented path names the route definition that serves it. Run as a script (`bun tests/route-table.ts`) after
// adding, moving or removing a route; tests/unit/route-table.test.ts fails while the file is out of date.
import path from 'node:path'
import { format, resolveConfig } from 'prettier'
import { loadRoutes } from '../server/routes.ts'

export const ROUTE_TABLE = path.join(import.meta.dir, '..', 'site', 'src', 'lib', 'route-table.ts')

/** The text route-table.ts should hold for the routes as they are now. */
export async function routeTableSource(): Promise<string> {
  const entries = (await loadRoutes()).map((r) => {
    const module = `typeof import('#${r.file}').${r.method}`
    const def = r.tail ? `${module}['tail']['actions']['${r.tail.action}']` : module
    return `  '${r.method} ${r.docPath}': ${def}`
  })
  const text = [
    '// Generated from the route registry by `bun tests/route-table.ts`: do not edit. Every method and documented path',
    "// of the API, with the route definition that serves it; lib/admin.ts's `api` checks its calls against it.",
    'export interface RouteTable {',
    ...entries,
    '}',
    '',
  ].join('\n')
  return format(text, { ...(await resolveConfig(ROUTE_TABLE)), filepath: ROUTE_TABLE })
}

if (import.meta.main) await Bun.write(ROUTE_TABLE, await routeTableSource())
