// The catalog tables' types (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const GAME_MODES = ['br', 'og', 'reload', 'festival', 'racing', 'blocks'] as const
export type GameMode = (typeof GAME_MODES)[number]
export const CATALOG_STATUSES = ['unreleased', 'released', 'hidden'] as const
export type CatalogStatus = (typeof CATALOG_STATUSES)[number]

export interface CatalogVariantTable {
  id: Generated<number>
  season: string
  base_name: string
  row_name: string
  variant: string
  status: CatalogStatus
  released_at: string | null
  max_stack: number
  rarity_weight: number | null
  confirmed: number
  game_mode: GameMode
  cross_mode_trading: number
  notes: string | null
  /** Stable while the season, base name and variant stay the same. */
  variant_id: string
  /** The load that last changed this variant (see catalog_sequence). */
  changed_seq: number
  /** The season's numbers (c6s3: 6 and 3), for natural order across seasons. */
  chapter: number
  season_no: number
  /** Base, row and variant names, lower case without accents, for search. */
  search_text: string
  /** When the catalog first saw this variant, and when its content last changed (RFC 3339). */
  added_at: string
  changed_at: string
  /** Its place in its season file, from 0: a page cursor's position. */
  ord: number
  /** row_name folded as search folds it, for the row_name filter. */
  row_key: string
}
export type CatalogVariant = Selectable<CatalogVariantTable>

/** A variant that a load removed (its season file changed or went away), for bots that sync. */
export interface CatalogRemovedTable {
  variant_id: string
  season: string
  removed_seq: number
  removed_at: string
}

/** One row: the number of the latest catalog load; every load that changes anything takes the next. */
export interface CatalogSequenceTable {
  id: number
  seq: number
}

export interface CatalogFileTable {
  file: string
  season: string | null
  checked_at: string
  ok: number
  loaded_at: string | null
  problems: string // JSON array of {level, pointer, message}
}
