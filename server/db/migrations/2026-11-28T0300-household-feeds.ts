// Each household's private calendar feed (/calendar/household/{token}.ics): its token kept only as a SHA-256 hash,
// one per household, so a new token replaces (revokes) the old one. It goes with the household.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "household_feeds" (
      "household_id" integer primary key references "households" ("id") on delete cascade,
      "token_hash" text not null unique,
      "created_at" text not null,
      "created_by" text not null
    )`.execute(db)
}
