// The mail outbox: one row per message and recipient address, written in the same transaction as the change that
// sends it, and delivered by the background sender (queued → sending → sent, failed or queued again for a retry);
// reset links a person asked for themselves ("Forgot your password?"), which have no leader behind them; and whether
// a leader wants a mail when a family sends the join form.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "mail_outbox" (
      "id" integer primary key autoincrement, "created_at" text not null, "kind" text not null,
      "to_address" text not null, "subject" text not null, "text_body" text not null, "html_body" text not null,
      "headers" text default '{}' not null, "sensitive" integer default 0 not null,
      "priority" integer default 1 not null, "give_up_at" text not null,
      "state" text default 'queued' not null, "attempts" integer default 0 not null,
      "next_attempt_at" text not null, "last_attempt_at" text, "sent_at" text, "error" text
    )`.execute(db)
  await sql`create index "mail_outbox_due" on "mail_outbox" ("state", "next_attempt_at")`.execute(db)
  await sql`create index "mail_outbox_to" on "mail_outbox" ("to_address", "kind", "created_at")`.execute(db)
  await sql`alter table "reset_links" add column "asked_by_self" integer default 0 not null`.execute(db)
  await sql`alter table "people" add column "lead_alerts" integer default 1 not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table "people" drop column "lead_alerts"`.execute(db)
  await sql`alter table "reset_links" drop column "asked_by_self"`.execute(db)
  await db.schema.dropTable('mail_outbox').execute()
}
