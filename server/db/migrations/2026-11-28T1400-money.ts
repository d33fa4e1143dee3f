// The money ledger: entries per scout or household that are never edited or deleted (a reversal is a new entry), dues
// charged once per scout and program year, and a short random payment reference on each household that online
// payments carry back to name whom they are from.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // reverses_id: the entry this one undoes (its effect on the balance counts the other way); an entry is undone once.
  // dues_year: the program year of a dues charge, so running dues again charges only scouts not charged yet.
  await sql`
    create table "money_entries" (
      "id" integer primary key autoincrement,
      "household_id" integer not null references "households" ("id"),
      "scout_id" integer references "scouts" ("id"),
      "kind" text not null check ("kind" in ('charge', 'payment', 'credit', 'refund')),
      "amount_cents" integer not null check ("amount_cents" > 0),
      "date" text not null, "memo" text not null, "event_uid" text,
      "method" text check ("method" in ('cash', 'check', 'online', 'other')), "reference" text,
      "reverses_id" integer unique references "money_entries" ("id"), "dues_year" integer,
      "created_by" text not null, "created_at" text not null
    )`.execute(db)
  await sql`create index "money_entries_household" on "money_entries" ("household_id", "id")`.execute(db)
  await sql`create index "money_entries_scout" on "money_entries" ("scout_id", "id")`.execute(db)
  await sql`create index "money_entries_event" on "money_entries" ("event_uid", "id")`.execute(db)
  await sql`create unique index "money_entries_dues_once" on "money_entries" ("scout_id", "dues_year")
    where "dues_year" is not null and "reverses_id" is null`.execute(db)
  await sql`alter table "households" add column "payment_reference" text`.execute(db)
  await sql`update "households" set "payment_reference" = upper(hex(randomblob(4)))`.execute(db)
  await sql`create unique index "households_payment_reference" on "households" ("payment_reference")`.execute(db)
  // Every household gets its reference as it is made, however it is made (the roster, an import, a lead).
  await sql`
    create trigger "households_payment_reference_new" after insert on "households"
    when new."payment_reference" is null
    begin update "households" set "payment_reference" = upper(hex(randomblob(4))) where "id" = new."id"; end`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger "households_payment_reference_new"`.execute(db)
  await sql`drop index "households_payment_reference"`.execute(db)
  await sql`alter table "households" drop column "payment_reference"`.execute(db)
  await db.schema.dropTable('money_entries').execute()
}
