// Who came to an event: each scout ticked present or not (with the unit the scout was in then, so a scout who moves
// from the pack to the troop keeps the log), and the adults by name. An occurrence of a repeating event is its own
// event_uid (see server/attendance/occurrence.ts).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "attendance" (
      "event_uid" text not null, "scout_id" integer not null references "scouts" ("id") on delete cascade,
      "present" integer not null, "unit" text not null, "recorded_at" text not null, "recorded_by" text not null,
      primary key ("event_uid", "scout_id")
    )`.execute(db)
  await sql`create index "attendance_scout" on "attendance" ("scout_id")`.execute(db)
  await sql`
    create table "attendance_adults" (
      "event_uid" text not null, "name" text not null, "present" integer not null,
      "recorded_at" text not null, "recorded_by" text not null,
      primary key ("event_uid", "name")
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attendance_adults').execute()
  await db.schema.dropTable('attendance').execute()
}
