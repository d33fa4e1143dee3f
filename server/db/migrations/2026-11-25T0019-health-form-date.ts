// The date written on a health form (never its contents): the form counts as current for 12 months from it.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "checks" add column "form_date" text`.execute(db)
}
