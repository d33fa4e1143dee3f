// The public catalog pages at build time: a page per season and one per PER_PAGE variants of it in file order, so no
// page grows with the catalog (at 100,000 variants one page of everything was 13.8 MB of HTML).
import { seasons } from '#server/catalog/queries.ts'
import { db } from './data.ts'

/** Variants on one page: about 150 KB of HTML, so a page stays well under 500 KB whatever the names are. */
export const PER_PAGE = 500

const withPages = <S extends { variants: number }>(s: S) => ({ ...s, pages: Math.max(1, Math.ceil(s.variants / PER_PAGE)) })

export async function catalogSeasons() {
  return (await seasons(db)).seasons.map(withPages)
}

/** One season with its pages, or undefined: a season's pages count that season alone, not the whole catalog. */
export async function catalogSeason(season: string | undefined) {
  const [s] = season === undefined ? [] : (await seasons(db, season)).seasons
  return s && withPages(s)
}

/** Each page of a season by its first and last row, for the season's list of pages. */
export async function pageRanges(season: string, pages: number) {
  const edges = await db
    .selectFrom('catalog_variants')
    .select(['ord', 'row_name'])
    .where('season', '=', season)
    .where((eb) => eb.or([eb(eb('ord', '%', PER_PAGE), '=', 0), eb(eb('ord', '%', PER_PAGE), '=', PER_PAGE - 1)]))
    .orderBy('ord')
    .execute()
  const last = await db
    .selectFrom('catalog_variants')
    .select('row_name')
    .where('season', '=', season)
    .orderBy('ord', 'desc')
    .limit(1)
    .executeTakeFirst()
  return Array.from({ length: pages }, (_, i) => {
    const first = edges.find((e) => e.ord === i * PER_PAGE)?.row_name ?? ''
    const end = edges.find((e) => e.ord === i * PER_PAGE + PER_PAGE - 1)?.row_name ?? last?.row_name ?? ''
    return { page: i + 1, first, last: end }
  })
}

/** Page `page` (from 1) of a season, its variants in file order grouped by consecutive row. */
export async function seasonPage(season: string, page: number) {
  const variants = await db
    .selectFrom('catalog_variants')
    .select(['base_name', 'row_name', 'variant', 'status', 'game_mode', 'released_at', 'confirmed'])
    .where('season', '=', season)
    .where('ord', '>=', (page - 1) * PER_PAGE)
    .where('ord', '<', page * PER_PAGE)
    .orderBy('ord')
    .execute()
  const rows: { row_name: string; variants: typeof variants }[] = []
  for (const v of variants) {
    if (rows.at(-1)?.row_name !== v.row_name) rows.push({ row_name: v.row_name, variants: [] })
    rows.at(-1)!.variants.push(v)
  }
  return rows
}
