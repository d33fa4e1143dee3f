// A household's yes may be split when its scouts outnumber the places left: the first ones confirmed now, the rest
// waiting. The row stays confirmed; `waiting` counts its scouts still waiting (the last ones of scout_ids).
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "rsvps" add column "waiting" integer not null default 0`.execute(db)
}
