// Join-form leads with their claim, spam caught by the honeypot, and each lead's copies to outside targets.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "leads" (
      "id" integer primary key autoincrement, "created_at" text not null, "parent_name" text not null, "email" text,
      "phone" text, "scout_name" text, "scout_grade" text, "unit" text not null, "message" text,
      "claimed_by" integer references "people" ("id"), "claimed_at" text
    )`.execute(db)
  await sql`create index "leads_claimed_by" on "leads" ("claimed_by")`.execute(db)
  await sql`
    create table "join_spam" (
      "id" integer primary key autoincrement, "at" text not null, "address" text, "payload" text not null
    )`.execute(db)
  await sql`
    create table "mirror_copies" (
      "lead_id" integer not null references "leads" ("id"), "target" text not null, "status" text not null,
      "attempts" integer not null, "last_attempt_at" text, "error" text,
      constraint "mirror_copies_pk" primary key ("lead_id", "target")
    )`.execute(db)
  await sql`create index "mirror_copies_status" on "mirror_copies" ("status", "target")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mirror_copies', 'join_spam', 'leads']) await db.schema.dropTable(table).execute()
}
