// Catalog reads shared by the bot's routes and the public pages.
import type { Executor } from '../history/record.ts'
import type { CatalogRow } from './validate.ts'

export async function seasonExists(db: Executor, season: string): Promise<boolean> {
  return !!(await db.selectFrom('catalog_variants').select('id').where('season', '=', season).limit(1).executeTakeFirst())
}

export async function catalogRows(
  db: Executor,
  season: string,
  f: { status?: string; game_mode?: string; row_name?: string },
): Promise<CatalogRow[]> {
  let q = db
    .selectFrom('catalog_variants')
    .select([
      'season',
      'base_name',
      'row_name',
      'variant',
      'status',
      'released_at',
      'max_stack',
      'rarity_weight',
      'confirmed',
      'game_mode',
      'cross_mode_trading',
      'notes',
    ])
    .where('season', '=', season)
  if (f.status) q = q.where('status', '=', f.status)
  if (f.game_mode) q = q.where('game_mode', '=', f.game_mode)
  if (f.row_name) q = q.where('row_name', '=', f.row_name)
  const rows = await q.orderBy('id').execute()
  return rows.map((r) => ({
    ...r,
    status: r.status as CatalogRow['status'],
    confirmed: r.confirmed === 1,
    cross_mode_trading: r.cross_mode_trading === 1,
  }))
}
