// Repairs databases made while shipped migrations were still being edited (b912ee6 and before): 0011 without the
// households_lead index (before eeec56d), 0016 without people.lead_alerts (before 2824c74) and without the outbox's
// priority, give_up_at and mail_outbox_to index (before b912ee6). Each step runs only where its part is missing, so
// every past database, and a fresh one, ends with the same schema. Frozen once shipped, like every migration.
import { type Kysely, sql } from 'kysely'

async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
  return rows.some((r) => r.name === column)
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists "households_lead" on "households" ("lead_id")`.execute(db)
  if (!(await hasColumn(db, 'people', 'lead_alerts'))) {
    await sql`alter table "people" add column "lead_alerts" integer default 1 not null`.execute(db)
  }
  if (!(await hasColumn(db, 'mail_outbox', 'give_up_at'))) {
    // give_up_at is NOT NULL without a default, which ALTER TABLE cannot add: the table is made again as 0016 and
    // 0017 make it, every mail kept at the usual priority and given up 24 hours after it was queued.
    await sql`
      create table "mail_outbox_repaired" (
        "id" integer primary key autoincrement, "created_at" text not null, "kind" text not null,
        "to_address" text not null, "subject" text not null, "text_body" text not null, "html_body" text not null,
        "headers" text default '{}' not null, "sensitive" integer default 0 not null,
        "priority" integer default 1 not null, "give_up_at" text not null,
        "state" text default 'queued' not null, "attempts" integer default 0 not null,
        "next_attempt_at" text not null, "last_attempt_at" text, "sent_at" text, "error" text
      , "message_id" integer references "messages" ("id"))`.execute(db)
    await sql`
      insert into "mail_outbox_repaired" (
        "id", "created_at", "kind", "to_address", "subject", "text_body", "html_body", "headers", "sensitive",
        "priority", "give_up_at", "state", "attempts", "next_attempt_at", "last_attempt_at", "sent_at", "error",
        "message_id")
      select "id", "created_at", "kind", "to_address", "subject", "text_body", "html_body", "headers", "sensitive",
        1, strftime('%Y-%m-%dT%H:%M:%fZ', "created_at", '+1 day'), "state", "attempts", "next_attempt_at",
        "last_attempt_at", "sent_at", "error", "message_id"
      from "mail_outbox"`.execute(db)
    await sql`drop table "mail_outbox"`.execute(db)
    await sql`alter table "mail_outbox_repaired" rename to "mail_outbox"`.execute(db)
    await sql`create index "mail_outbox_due" on "mail_outbox" ("state", "next_attempt_at")`.execute(db)
    await sql`create index "mail_outbox_message" on "mail_outbox" ("message_id")`.execute(db)
  }
  await sql`create index if not exists "mail_outbox_to" on "mail_outbox" ("to_address", "kind", "created_at")`.execute(db)
}
