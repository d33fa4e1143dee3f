// Site announcements (state is computed, never stored) and the directory of nearby units.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "announcements" (
      "id" integer primary key autoincrement, "message" text not null, "starts_at" text not null,
      "ends_at" text not null, "created_at" text not null, "created_by" text not null, "revoked_at" text
    )`.execute(db)
  await sql`
    create table "nearby_units" (
      "id" integer primary key autoincrement, "name" text not null, "unit_type" text not null, "unit_number" text,
      "town" text, "meeting_place" text, "meeting_day" text, "meeting_time" text, "website" text,
      "contact_email" text, "notes" text, "verified_at" text, "active" integer default 1 not null,
      "created_at" text not null, "updated_at" text not null
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('announcements').execute()
  await db.schema.dropTable('nearby_units').execute()
}
