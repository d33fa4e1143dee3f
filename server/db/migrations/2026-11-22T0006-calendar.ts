// The calendar: uids the site created (that is `mine`), and a copy of the store's resources for the site build.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "calendar_uids" (
      "uid" text primary key, "created_at" text not null
    )`.execute(db)
  await sql`
    create table "calendar_objects" (
      "uid" text primary key, "url" text not null, "etag" text, "ics" text not null, "synced_at" text not null
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_objects').execute()
  await db.schema.dropTable('calendar_uids').execute()
}
