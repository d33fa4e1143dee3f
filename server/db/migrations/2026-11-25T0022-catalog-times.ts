// The catalog for bot authors: when the catalog first saw each variant and when its content last changed (kept
// across reloads of an unchanged file), when a removed one went, its place in its file (`ord`, so a page cursor
// is a content position that survives a reload) and its row name folded as search folds it (`row_key`, for the
// case- and accent-blind row_name filter).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of [
    `"added_at" text not null default ''`,
    `"changed_at" text not null default ''`,
    `"ord" integer not null default 0`,
    `"row_key" text not null default ''`,
  ])
    await sql.raw(`alter table "catalog_variants" add column ${column}`).execute(db)
  // Rows already loaded: seen when their file was last loaded; in file order; the row key is filled by the next
  // load of their file, which every start does.
  await sql`
    update "catalog_variants" set
      "added_at" = coalesce((select "loaded_at" from "catalog_files" f where f."season" = "catalog_variants"."season"), ''),
      "changed_at" = coalesce((select "loaded_at" from "catalog_files" f where f."season" = "catalog_variants"."season"), ''),
      "ord" = "id" - (select min("id") from "catalog_variants" v where v."season" = "catalog_variants"."season"),
      "row_key" = lower("row_name")`.execute(db)
  await sql`create index "catalog_variants_ord" on "catalog_variants" ("season", "ord")`.execute(db)
  await sql`alter table "catalog_removed" add column "removed_at" text not null default ''`.execute(db)
  await sql`create index "catalog_variants_changed_at" on "catalog_variants" ("changed_at")`.execute(db)
  await sql`create index "catalog_removed_at" on "catalog_removed" ("removed_at")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['catalog_removed_at', 'catalog_variants_changed_at', 'catalog_variants_ord'])
    await db.schema.dropIndex(index).execute()
  await db.schema.alterTable('catalog_removed').dropColumn('removed_at').execute()
  for (const column of ['row_key', 'ord', 'changed_at', 'added_at'])
    await db.schema.alterTable('catalog_variants').dropColumn(column).execute()
}
