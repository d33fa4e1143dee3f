// Sign-in links by mail (one use, found by the SHA-256 of their token) and the record of roster welcomes, so a
// household mailed one in the last 7 days is skipped.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // household_id: a link to a roster address with no account yet; it is checked again when used, so a household
  // removed meanwhile leaves the link naming nobody (refused).
  await sql`
    create table "login_links" (
      "id" integer primary key autoincrement, "token_hash" text not null unique, "email" text not null,
      "person_id" integer references "people" ("id"), "household_id" integer references "households" ("id") on delete set null,
      "kind" text not null, "created_at" text not null, "expires_at" text not null, "used_at" text, "revoked_at" text
    )`.execute(db)
  await sql`create index "login_links_email" on "login_links" ("email")`.execute(db)
  await sql`
    create table "roster_welcomes" (
      "id" integer primary key autoincrement, "household_id" integer not null references "households" ("id") on delete cascade,
      "email" text not null, "sent_by" text not null, "sent_at" text not null
    )`.execute(db)
  await sql`create index "roster_welcomes_household" on "roster_welcomes" ("household_id", "sent_at")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['roster_welcomes', 'login_links']) await db.schema.dropTable(table).execute()
}
