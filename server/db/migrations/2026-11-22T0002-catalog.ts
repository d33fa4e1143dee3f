// The season catalog, flattened from catalog/*.json: one row per variant, and each file's last check.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "catalog_variants" (
      "id" integer primary key autoincrement, "season" text not null, "base_name" text not null,
      "row_name" text not null, "variant" text not null, "status" text not null, "released_at" text,
      "max_stack" integer not null, "rarity_weight" real, "confirmed" integer not null, "game_mode" text not null,
      "cross_mode_trading" integer not null, "notes" text
    )`.execute(db)
  await sql`create index "catalog_variants_season" on "catalog_variants" ("season", "id")`.execute(db)
  await sql`
    create table "catalog_files" (
      "file" text primary key, "season" text, "checked_at" text not null, "ok" integer not null, "loaded_at" text,
      "problems" text not null
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_variants').execute()
  await db.schema.dropTable('catalog_files').execute()
}
