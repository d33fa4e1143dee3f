// Replies to events that ask for them (RSVPs), kept here because the calendar store has no place for them.
// `rsvp_events` remembers what the event was, so its replies stay readable for 30 days after the event is
// deleted from the store (`gone_at`); `asking` = 0 means the event no longer takes replies but keeps those it has.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "rsvp_events" (
      "uid" text primary key, "title" text not null, "date" text not null, "time" text, "location" text, "starts_at" text not null,
      "asking" integer not null default 1, "asked_by" text not null, "asked_at" text not null, "gone_at" text
    )`.execute(db)
  await sql`
    create table "rsvps" (
      "uid" text not null references "rsvp_events" ("uid") on delete cascade,
      "household_id" integer not null references "households" ("id"),
      "answer" text not null check ("answer" in ('yes', 'no', 'maybe')),
      "adults" integer not null check ("adults" between 0 and 20),
      "scouts" integer not null check ("scouts" between 0 and 20),
      "note" text,
      "answered_by" text not null, "answered_at" text not null,
      primary key ("uid", "household_id")
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rsvps').execute()
  await db.schema.dropTable('rsvp_events').execute()
}
