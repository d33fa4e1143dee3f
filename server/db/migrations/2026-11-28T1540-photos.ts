// Event albums: each photo's web sizes (blobs in the file store), who sent it, its review, public mark and takedown,
// and the scouts tagged in it. A tag keeps its scout's id without a foreign key: a scout who leaves the roster leaves
// a tag that counts as no consent, so the photo is hidden from families until a leader looks at it again.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "photos" (
      "id" integer primary key autoincrement, "event_uid" text not null,
      "unit" text not null check ("unit" in ('pack', 'troop', 'both')),
      "width" integer not null, "height" integer not null, "variants" text not null,
      "uploaded_by_person_id" integer references "people" ("id") on delete set null, "uploaded_by" text not null,
      "uploaded_at" text not null, "reviewed_at" text, "reviewed_by" text, "public" integer default 0 not null,
      "taken_down_at" text, "taken_down_by" text
    )`.execute(db)
  await sql`create index "photos_event" on "photos" ("event_uid")`.execute(db)
  await sql`
    create table "photo_scouts" (
      "photo_id" integer not null references "photos" ("id") on delete cascade, "scout_id" integer not null,
      primary key ("photo_id", "scout_id")
    )`.execute(db)
  await sql`create index "photo_scouts_scout" on "photo_scouts" ("scout_id")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('photo_scouts').execute()
  await db.schema.dropTable('photos').execute()
}
