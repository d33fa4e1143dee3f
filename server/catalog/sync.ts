// Writing a season's rows so that bots can sync: stable variant ids, the load (and time) that first added and last
// changed each variant, and tombstones for removed ones. Every load that changes anything takes the next number of one counter.
import type { Executor } from '../db/database.ts'
import { nowIso } from '../schemas.ts'
import { foldName, searchText } from './fold.ts'
import { ROW_FIELDS, served } from './queries.ts'
import type { CatalogRow } from './validate.ts'

/** A variant's id: its season and a hash of its base name and variant, so it stays while they do. */
export function variantId(season: string, baseName: string, variant: string): string {
  const hash = new Bun.CryptoHasher('sha256').update(`${baseName}\u0000${variant}`).digest('base64url')
  return `${season}-${hash.slice(0, 12)}`
}

/** The numbers of a season name: c6s3 → [6, 3]. */
export const seasonNumbers = (season: string): [number, number] => {
  const [chapter, number] = season.slice(1).split('s').map(Number)
  return [chapter, number]
}

/** What a bot sees of a row, to tell whether a reload changed it. */
const content = (r: Record<(typeof ROW_FIELDS)[number], unknown>) => JSON.stringify(ROW_FIELDS.map((f) => r[f]))

async function nextSeq(trx: Executor): Promise<number> {
  const { seq } = await trx
    .updateTable('catalog_sequence')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', 1)
    .returning('seq')
    .executeTakeFirstOrThrow()
  return seq
}

/**
 * Replaces a season's rows in file order; unchanged variants keep their `changed_seq`, `added_at` and `changed_at`
 * (so an untouched or reformatted file changes nothing a bot sees), removed ones leave a tombstone.
 */
export async function replaceSeason(trx: Executor, season: string, rows: CatalogRow[], now = nowIso()): Promise<void> {
  const seq = await nextSeq(trx)
  const before = new Map(
    (await trx.selectFrom('catalog_variants').selectAll().where('season', '=', season).execute()).map((r) => [
      r.variant_id,
      { seq: r.changed_seq, added_at: r.added_at, changed_at: r.changed_at, content: content(served(r)) },
    ]),
  )
  const [chapter, season_no] = seasonNumbers(season)
  const values = rows.map((r, ord) => {
    const variant_id = variantId(season, r.base_name, r.variant)
    const old = before.get(variant_id)
    const same = old && old.content === content(r)
    return {
      ...r,
      confirmed: r.confirmed ? 1 : 0,
      cross_mode_trading: r.cross_mode_trading ? 1 : 0,
      variant_id,
      changed_seq: same ? old.seq : seq,
      // rows from before times were kept have none: they are seen now
      added_at: old?.added_at || now,
      changed_at: same && old.changed_at ? old.changed_at : now,
      ord,
      row_key: searchText(r.row_name),
      chapter,
      season_no,
      search_text: foldName(`${r.base_name} ${r.row_name} ${r.variant}`),
    }
  })
  await trx.deleteFrom('catalog_variants').where('season', '=', season).execute()
  for (let i = 0; i < values.length; i += 500)
    await trx
      .insertInto('catalog_variants')
      .values(values.slice(i, i + 500))
      .execute()
  const kept = new Set(values.map((v) => v.variant_id))
  await tombstone(
    trx,
    season,
    [...before.keys()].filter((id) => !kept.has(id)),
    seq,
    now,
  )
  for (let i = 0; i < values.length; i += 500)
    await trx
      .deleteFrom('catalog_removed')
      .where(
        'variant_id',
        'in',
        values.slice(i, i + 500).map((v) => v.variant_id),
      )
      .execute()
}

/** Removes a season (its file went away): every variant leaves a tombstone. */
export async function removeSeason(trx: Executor, season: string, now = nowIso()): Promise<void> {
  const ids = (await trx.selectFrom('catalog_variants').select('variant_id').where('season', '=', season).execute()).map(
    (r) => r.variant_id,
  )
  if (!ids.length) return
  const seq = await nextSeq(trx)
  await trx.deleteFrom('catalog_variants').where('season', '=', season).execute()
  await tombstone(trx, season, ids, seq, now)
}

async function tombstone(trx: Executor, season: string, ids: string[], seq: number, now: string) {
  // rows from before ids existed have none; they were never offered to a syncing bot
  const kept = ids.filter(Boolean)
  // 500 rows a statement: one statement per row held the writer about a second for a season of 5,000 variants
  for (let i = 0; i < kept.length; i += 500)
    await trx
      .insertInto('catalog_removed')
      .values(kept.slice(i, i + 500).map((variant_id) => ({ variant_id, season, removed_seq: seq, removed_at: now })))
      .onConflict((oc) => oc.column('variant_id').doUpdateSet({ season, removed_seq: seq, removed_at: now }))
      .execute()
}

/** The number of the latest load. */
export async function currentSeq(db: Executor): Promise<number> {
  return (await db.selectFrom('catalog_sequence').select('seq').where('id', '=', 1).executeTakeFirstOrThrow()).seq
}
