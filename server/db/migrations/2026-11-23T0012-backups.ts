// Automatic backups: each attempt (daily, catch-up after downtime, before a migration) with its file or its error.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "backups" (
      "id" integer primary key autoincrement, "started_at" text not null, "finished_at" text not null,
      "reason" text not null, "ok" integer not null, "file" text, "bytes" integer, "error" text
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('backups').execute()
}
