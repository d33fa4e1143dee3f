// Who added each household: until it has a scout, a household belongs to the leader who added it (and to admins),
// so another unit's leader cannot claim it with a decoy scout or link accounts to it first.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "households" add column "created_by_person_id" integer references "people" ("id")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table "households" drop column "created_by_person_id"`.execute(db)
}
