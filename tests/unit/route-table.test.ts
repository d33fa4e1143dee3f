// The admin client's route table matches the route registry: a route added, moved or removed without running
// `bun tests/route-table.ts` fails here rather than leaving the admin pages typed against routes that are gone.
import { expect, it } from 'bun:test'
import { ROUTE_TABLE, routeTableSource } from '../route-table.ts'

it('site/src/lib/route-table.ts lists every route of the registry (regenerate with `bun tests/route-table.ts`)', async () => {
  expect(await Bun.file(ROUTE_TABLE).text()).toBe(await routeTableSource())
})
