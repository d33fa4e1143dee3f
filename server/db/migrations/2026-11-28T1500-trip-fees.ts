// Trip fees in the ledger: an entry the service wrote by a rule rather than a person entering it says which rule, so
// the rule finds its own entries again — a scout's charge for an event they were confirmed on ('trip_fee'), and the
// total a leader recorded on an event's payment route ('event_payment'). Entries entered by hand keep null.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "money_entries" add column "origin" text check ("origin" in ('trip_fee', 'event_payment'))`.execute(db)
}
