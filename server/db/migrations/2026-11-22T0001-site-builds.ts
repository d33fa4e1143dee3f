// Site builds: when each regeneration ran, how long it took and how it ended.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "site_builds" (
      "id" integer primary key autoincrement, "started_at" text not null, "finished_at" text not null,
      "duration_ms" integer not null, "ok" integer not null, "reason" text not null, "error" text
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('site_builds').execute()
}
