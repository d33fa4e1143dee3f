// The calendar the site keeps itself when no CalDAV collection is configured (one VEVENT resource per row, as a
// collection would hold it), and sign-ups on events that ask for replies: the event's sign-up settings, each reply's
// place (confirmed or on the waitlist, in the order answered) and named scouts, the permission slip as signed, the
// slots a household volunteers for, and the payment a leader recorded.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "calendar_site_events" (
      "uid" text primary key, "ics" text not null, "etag" text not null, "changed_at" text not null
    )`.execute(db)
  await sql`alter table "rsvp_events" add column "signup" text`.execute(db)
  await sql`
    alter table "rsvps" add column "status" text not null default 'confirmed'
      check ("status" in ('confirmed', 'waitlisted'))`.execute(db)
  await sql`alter table "rsvps" add column "queued_at" text`.execute(db)
  await sql`alter table "rsvps" add column "scout_ids" text`.execute(db)
  await sql`
    create table "rsvp_permissions" (
      "uid" text not null, "household_id" integer not null,
      "text" text not null, "signed_name" text not null, "signed_by" text not null, "signed_at" text not null,
      "address" text not null,
      primary key ("uid", "household_id"),
      foreign key ("uid", "household_id") references "rsvps" ("uid", "household_id") on delete cascade
    )`.execute(db)
  await sql`
    create table "rsvp_slots" (
      "uid" text not null, "household_id" integer not null, "name" text not null,
      "count" integer not null check ("count" between 1 and 50),
      primary key ("uid", "household_id", "name"),
      foreign key ("uid", "household_id") references "rsvps" ("uid", "household_id") on delete cascade
    )`.execute(db)
  await sql`
    create table "rsvp_payments" (
      "uid" text not null references "rsvp_events" ("uid") on delete cascade,
      "household_id" integer not null references "households" ("id"),
      "paid_cents" integer not null check ("paid_cents" >= 0),
      "method" text not null check ("method" in ('cash', 'check', 'online', 'other')),
      "note" text, "recorded_by" text not null, "recorded_at" text not null,
      primary key ("uid", "household_id")
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rsvp_payments', 'rsvp_slots', 'rsvp_permissions', 'calendar_site_events'])
    await db.schema.dropTable(table).execute()
  for (const column of ['scout_ids', 'queued_at', 'status']) await db.schema.alterTable('rsvps').dropColumn(column).execute()
  await db.schema.alterTable('rsvp_events').dropColumn('signup').execute()
}
