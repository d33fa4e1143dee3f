// Messages from leaders to families: the message as sent (its deliveries are outbox rows that point at it, plus the
// addresses it skipped and why), one unsubscribe token per address, and the weekly digests already sent.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "messages" (
      "id" integer primary key autoincrement, "created_at" text not null,
      "sender_person_id" integer not null references "people" ("id"), "sent_by" text not null,
      "subject" text not null, "body" text not null, "audience" text not null, "unit_ids" text not null,
      "urgent" integer default 0 not null, "recipients" integer not null
    )`.execute(db)
  await sql`
    create table "message_skips" (
      "message_id" integer not null references "messages" ("id") on delete cascade,
      "email" text, "who" text not null, "reason" text not null
    )`.execute(db)
  await sql`create index "message_skips_message" on "message_skips" ("message_id")`.execute(db)
  await sql`alter table "mail_outbox" add column "message_id" integer references "messages" ("id")`.execute(db)
  await sql`create index "mail_outbox_message" on "mail_outbox" ("message_id")`.execute(db)
  await sql`
    create table "mail_subscriptions" (
      "email" text primary key, "token" text not null unique, "created_at" text not null, "unsubscribed_at" text
    )`.execute(db)
  await sql`create table "digest_runs" ("day" text primary key, "ran_at" text not null, "mails" integer not null)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('digest_runs').execute()
  await db.schema.dropTable('mail_subscriptions').execute()
  await sql`drop index "mail_outbox_message"`.execute(db)
  await sql`alter table "mail_outbox" drop column "message_id"`.execute(db)
  await db.schema.dropTable('message_skips').execute()
  await db.schema.dropTable('messages').execute()
}
