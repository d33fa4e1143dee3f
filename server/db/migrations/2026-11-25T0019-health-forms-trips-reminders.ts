// The date written on a health form (never its contents): the form counts as current for 12 months from it; a
// household's emergency contact (a name and a phone), for the trip roster; and the reminders of events asking for
// replies, one per event, household and kind, so none goes twice (with the event's unit, to know whom it concerns).
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "checks" add column "form_date" text`.execute(db)
  await sql`alter table "households" add column "emergency_name" text`.execute(db)
  await sql`alter table "households" add column "emergency_phone" text`.execute(db)
  await sql`
    alter table "rsvp_events" add column "unit" text not null default 'both' check ("unit" in ('pack', 'troop', 'both'))`.execute(db)
  await sql`
    create table "rsvp_reminders" (
      "uid" text not null references "rsvp_events" ("uid") on delete cascade,
      "household_id" integer not null references "households" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('before_start', 'before_close')),
      "queued_at" text not null,
      primary key ("uid", "household_id", "kind")
    )`.execute(db)
}
