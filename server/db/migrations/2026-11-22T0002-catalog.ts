// The season catalog, flattened from catalog/*.json: one row per variant, and each file's last check.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_variants')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('season', 'text', (c) => c.notNull())
    .addColumn('base_name', 'text', (c) => c.notNull())
    .addColumn('row_name', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .addColumn('max_stack', 'integer', (c) => c.notNull())
    .addColumn('rarity_weight', 'real')
    .addColumn('confirmed', 'integer', (c) => c.notNull())
    .addColumn('game_mode', 'text', (c) => c.notNull())
    .addColumn('cross_mode_trading', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text')
    .execute()
  await db.schema.createIndex('catalog_variants_season').on('catalog_variants').columns(['season', 'id']).execute()

  await db.schema
    .createTable('catalog_files')
    .addColumn('file', 'text', (c) => c.primaryKey())
    .addColumn('season', 'text')
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('loaded_at', 'text')
    .addColumn('problems', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_variants').execute()
  await db.schema.dropTable('catalog_files').execute()
}
