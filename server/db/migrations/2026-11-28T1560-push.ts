// Web Push: the VAPID key pair made once here (kept with the server's other secrets, so a restored backup keeps every
// phone's subscription working), each account's subscribed devices (and the session that subscribed each), what each person wants by push per kind, and the
// push outbox: one row per device and notification, recorded in the write that causes it, like the mail outbox.
import { type Kysely, sql } from 'kysely'
import { createECDH } from 'node:crypto'

export async function up(db: Kysely<any>): Promise<void> {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const now = new Date().toISOString()
  await sql`insert into server_secrets (name, secret, created_at) values
    ('vapid_public', ${ecdh.getPublicKey().toString('base64url')}, ${now}),
    ('vapid_private', ${ecdh.getPrivateKey().toString('base64url')}, ${now})`.execute(db)
  await sql`
    create table "push_subscriptions" (
      "id" integer primary key autoincrement,
      "person_id" integer not null references "people" ("id") on delete cascade,
      "endpoint" text not null unique, "p256dh" text not null, "auth" text not null,
      "user_agent" text, "created_at" text not null,
      "session_id" integer
    )`.execute(db)
  await sql`create index "push_subscriptions_person" on "push_subscriptions" ("person_id")`.execute(db)
  await sql`
    create table "push_preferences" (
      "person_id" integer not null references "people" ("id") on delete cascade,
      "kind" text not null, "channel" text not null,
      primary key ("person_id", "kind")
    )`.execute(db)
  await sql`
    create table "push_outbox" (
      "id" integer primary key autoincrement,
      "created_at" text not null, "kind" text not null,
      "person_id" integer not null, "subscription_id" integer, "endpoint" text not null,
      "title" text not null, "body" text not null, "url" text not null,
      "state" text default 'queued' not null, "attempts" integer default 0 not null,
      "next_attempt_at" text not null, "last_attempt_at" text, "sent_at" text, "give_up_at" text not null,
      "error" text, "message_id" integer
    )`.execute(db)
  await sql`create index "push_outbox_waiting" on "push_outbox" ("state", "next_attempt_at")`.execute(db)
  await sql`create index "push_outbox_message" on "push_outbox" ("message_id")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_outbox').execute()
  await db.schema.dropTable('push_preferences').execute()
  await db.schema.dropTable('push_subscriptions').execute()
  await sql`delete from server_secrets where name in ('vapid_public', 'vapid_private')`.execute(db)
}
