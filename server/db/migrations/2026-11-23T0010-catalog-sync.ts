// The catalog for bots that sync: each variant gets a stable id (from its season, base name and variant), the
// load that last changed it (`changed_seq`, from one counter that every load advances), its season's order
// (`chapter`, `season_no`) and a name to search by; removed variants leave a tombstone with the load that removed them.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of [
    `"variant_id" text not null default ''`,
    `"changed_seq" integer not null default 0`,
    `"chapter" integer not null default 0`,
    `"season_no" integer not null default 0`,
    `"search_text" text not null default ''`,
  ])
    await sql.raw(`alter table "catalog_variants" add column ${column}`).execute(db)
  await sql`create index "catalog_variants_variant_id" on "catalog_variants" ("variant_id")`.execute(db)
  await sql`create index "catalog_variants_changed" on "catalog_variants" ("changed_seq", "variant_id")`.execute(db)
  await sql`create index "catalog_variants_order" on "catalog_variants" ("chapter", "season_no", "id")`.execute(db)
  await sql`
    create table "catalog_removed" (
      "variant_id" text primary key, "season" text not null, "removed_seq" integer not null
    )`.execute(db)
  await sql`create index "catalog_removed_seq" on "catalog_removed" ("removed_seq", "variant_id")`.execute(db)
  await sql`create table "catalog_sequence" ("id" integer primary key check ("id" = 1), "seq" integer not null)`.execute(db)
  await sql`insert into "catalog_sequence" ("id", "seq") values (1, 0)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_sequence').execute()
  await db.schema.dropTable('catalog_removed').execute()
  for (const index of ['catalog_variants_order', 'catalog_variants_changed', 'catalog_variants_variant_id'])
    await db.schema.dropIndex(index).execute()
  for (const column of ['search_text', 'season_no', 'chapter', 'changed_seq', 'variant_id'])
    await db.schema.alterTable('catalog_variants').dropColumn(column).execute()
}
