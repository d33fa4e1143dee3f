// A unit at real size: a household's sort name (the parent's last name unless a leader sets one); a scout's
// preferred name and photo consent (set by the family); a leader's choice to show their email on the public unit
// page; an invite that links its account to a household on acceptance; content pages leaders write in Markdown;
// and the owner's getting-started steps they dismissed.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "households" add column "sort_name" text`.execute(db)
  await sql`alter table "scouts" add column "preferred_name" text`.execute(db)
  await sql`alter table "scouts" add column "photo_consent" integer not null default 0`.execute(db)
  await sql`alter table "people" add column "show_email" integer not null default 0`.execute(db)
  await sql`alter table "invites" add column "household_id" integer references "households" ("id") on delete set null`.execute(db)
  await sql`
    create table "content_pages" (
      "id" integer primary key autoincrement,
      "slug" text not null unique,
      "title" text not null,
      "body" text not null,
      "unit" text not null check ("unit" in ('pack', 'troop', 'both')),
      "published" integer not null default 0,
      "created_at" text not null,
      "updated_at" text not null,
      "updated_by" text not null
    )`.execute(db)
  await sql`
    create table "setup_steps" (
      "step" text primary key,
      "dismissed_at" text not null,
      "dismissed_by" text not null
    )`.execute(db)
}
