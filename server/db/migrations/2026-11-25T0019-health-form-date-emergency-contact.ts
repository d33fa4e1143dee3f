// The date written on a health form (never its contents): the form counts as current for 12 months from it; and a
// household's emergency contact (a name and a phone), for the trip roster.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "checks" add column "form_date" text`.execute(db)
  await sql`alter table "households" add column "emergency_name" text`.execute(db)
  await sql`alter table "households" add column "emergency_phone" text`.execute(db)
}
