// A second factor: authenticator apps (TOTP) and passkeys per person, one-time recovery codes, the short-lived
// tickets between a password and its second factor, pending passkey registrations, and since when the setting
// security.second_factor asks a person for one.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "second_factors" (
      "id" integer primary key autoincrement, "person_id" integer not null references "people" ("id"),
      "kind" text not null, "name" text not null, "created_at" text not null, "confirmed_at" text, "last_used_at" text,
      "totp_secret" text, "totp_last_step" integer,
      "credential_id" text unique, "public_key" text, "counter" integer, "transports" text
    )`.execute(db)
  await sql`create index "second_factors_person" on "second_factors" ("person_id")`.execute(db)
  await sql`
    create table "recovery_codes" (
      "id" integer primary key autoincrement, "person_id" integer not null references "people" ("id"),
      "code_hash" text not null unique, "created_at" text not null, "used_at" text
    )`.execute(db)
  await sql`create index "recovery_codes_person" on "recovery_codes" ("person_id")`.execute(db)
  await sql`
    create table "login_tickets" (
      "id" integer primary key autoincrement, "token_hash" text not null unique,
      "person_id" integer references "people" ("id"), "challenge" text, "created_at" text not null,
      "expires_at" text not null, "failures" integer default 0 not null, "used_at" text
    )`.execute(db)
  await sql`
    create table "passkey_challenges" (
      "person_id" integer primary key references "people" ("id"), "challenge" text not null, "expires_at" text not null
    )`.execute(db)
  await sql`alter table "people" add column "second_factor_asked_since" text`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table "people" drop column "second_factor_asked_since"`.execute(db)
  for (const table of ['passkey_challenges', 'login_tickets', 'recovery_codes', 'second_factors'])
    await db.schema.dropTable(table).execute()
}
