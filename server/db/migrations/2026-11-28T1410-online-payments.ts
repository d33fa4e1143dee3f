// Online payments as the payment provider reported them: one row per provider event (its retries find the row and
// change nothing), the household whose payment reference it named, and the ledger entry it became; a payment that
// names nobody waits here, unassigned, for the treasurer.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "online_payments" (
      "id" integer primary key autoincrement,
      "provider" text not null, "event_id" text not null, "session_id" text not null,
      "reference" text, "amount_cents" integer not null, "currency" text not null, "payer_email" text,
      "received_at" text not null,
      "entry_id" integer references "money_entries" ("id"), "assigned_by" text, "assigned_at" text,
      unique ("provider", "event_id"), unique ("provider", "session_id")
    )`.execute(db)
  await sql`create index "online_payments_unassigned" on "online_payments" ("entry_id", "id")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('online_payments').execute()
}
