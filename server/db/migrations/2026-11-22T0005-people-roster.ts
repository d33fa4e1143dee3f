// Password-reset links; the roster: households, their linked accounts, scouts and the yearly checklist.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "reset_links" (
      "id" integer primary key autoincrement, "token_hash" text not null unique,
      "person_id" integer not null references "people" ("id"), "created_by" text not null,
      "created_at" text not null, "expires_at" text not null, "used_at" text, "revoked_at" text
    )`.execute(db)
  await sql`
    create table "households" (
      "id" integer primary key autoincrement, "parent_name" text not null, "email" text, "phone" text,
      "second_parent" text, "notes" text, "active" integer default 1 not null,
      "lead_id" integer unique references "leads" ("id"), "created_at" text not null, "updated_at" text not null
    )`.execute(db)
  await sql`
    create table "household_people" (
      "household_id" integer not null references "households" ("id"),
      "person_id" integer not null references "people" ("id"),
      constraint "household_people_pk" primary key ("household_id", "person_id")
    )`.execute(db)
  await sql`create index "household_people_person" on "household_people" ("person_id")`.execute(db)
  await sql`
    create table "scouts" (
      "id" integer primary key autoincrement, "household_id" integer not null references "households" ("id"),
      "first_name" text not null, "last_name" text, "unit_id" integer not null references "units" ("id"), "den" text,
      "org_member_id" text, "created_at" text not null, "updated_at" text not null
    )`.execute(db)
  await sql`create index "scouts_household" on "scouts" ("household_id")`.execute(db)
  await sql`
    create table "checks" (
      "scout_id" integer not null references "scouts" ("id"), "year" integer not null, "item" text not null,
      "done" integer not null, "note" text, "recorded_by" text not null, "recorded_at" text not null,
      constraint "checks_pk" primary key ("scout_id", "year", "item")
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['checks', 'scouts', 'household_people', 'households', 'reset_links']) await db.schema.dropTable(table).execute()
}
