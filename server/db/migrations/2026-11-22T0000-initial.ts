// Initial schema: units (pack and troop seeded), people, sessions, keys, invites, settings, action log.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "units" (
      "id" integer primary key autoincrement, "slug" text not null unique, "name" text not null,
      "unit_type" text not null, "number" text, "meeting_day" text, "meeting_time" text, "meeting_place" text,
      "updated_at" text not null
    )`.execute(db)
  const now = new Date().toISOString()
  await db
    .insertInto('units')
    .values([
      { slug: 'pack', name: 'Cub Scout Pack', unit_type: 'pack', updated_at: now },
      { slug: 'troop', name: 'Scouts BSA Troop', unit_type: 'troop', updated_at: now },
    ])
    .execute()
  await sql`
    create table "people" (
      "id" integer primary key autoincrement, "email" text not null unique, "name" text,
      "password_hash" text not null, "global_role" text, "disabled_at" text, "created_at" text not null
    )`.execute(db)
  await sql`
    create table "memberships" (
      "person_id" integer not null references "people" ("id") on delete cascade,
      "unit_id" integer not null references "units" ("id"), "role" text not null, "title" text,
      constraint "memberships_pk" primary key ("person_id", "unit_id")
    )`.execute(db)
  await sql`
    create table "sessions" (
      "id" integer primary key autoincrement, "token_hash" text not null unique,
      "person_id" integer not null references "people" ("id") on delete cascade, "created_at" text not null,
      "last_seen_at" text not null, "expires_at" text not null, "address" text, "user_agent" text
    )`.execute(db)
  await sql`create index "sessions_person" on "sessions" ("person_id")`.execute(db)
  await sql`
    create table "api_keys" (
      "id" integer primary key autoincrement,
      "person_id" integer not null references "people" ("id") on delete cascade, "label" text not null,
      "scopes" text not null, "token_hash" text not null unique, "hint" text not null, "created_at" text not null,
      "expires_at" text, "revoked_at" text, "last_used_at" text
    )`.execute(db)
  await sql`create index "api_keys_person" on "api_keys" ("person_id")`.execute(db)
  await sql`
    create table "invites" (
      "id" integer primary key autoincrement, "token_hash" text not null unique, "email" text not null,
      "global_role" text, "units" text not null, "invited_by" text not null, "created_at" text not null,
      "expires_at" text not null, "revoked_at" text, "used_at" text, "person_id" integer references "people" ("id")
    )`.execute(db)
  await sql`create index "invites_email" on "invites" ("email")`.execute(db)
  await sql`
    create table "setup_tokens" (
      "id" integer primary key autoincrement, "token_hash" text not null unique, "created_at" text not null,
      "used_at" text
    )`.execute(db)
  await sql`
    create table "settings" (
      "key" text primary key, "value" text not null, "updated_at" text not null
    )`.execute(db)
  await sql`
    create table "action_log" (
      "id" integer primary key autoincrement, "at" text not null, "kind" text not null, "actor" text not null,
      "summary" text not null
    )`.execute(db)
  await sql`create index "action_log_at" on "action_log" ("at", "id")`.execute(db)
  await sql`create index "action_log_kind" on "action_log" ("kind", "at")`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('The initial migration cannot be reverted')
}
