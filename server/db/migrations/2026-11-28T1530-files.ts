// Uploaded files: one row per upload, its bytes under FILES_DIR/files/<id>/ (the original, or an image's web sizes).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "files" (
      "id" text primary key, "name" text not null, "mime" text not null, "bytes" integer not null, "sha256" text not null,
      "unit" text not null check ("unit" in ('pack', 'troop', 'both')), "event_uid" text,
      "visibility" text not null check ("visibility" in ('public', 'members')),
      "width" integer, "height" integer, "variants" text,
      "created_at" text not null, "created_by" text not null
    )`.execute(db)
  await sql`create index "files_by_unit" on "files" ("unit", "event_uid", "created_at")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('files').execute()
}
