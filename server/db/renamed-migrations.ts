// Migrations that reached main under a name later renamed or deleted: a database that ran one records the old name,
// which Kysely's migrator refuses ("previously executed migration … is missing"). Before the migrator runs, each such
// database gets what the migration that replaced it adds beyond the old one, and the old name becomes the new one.
import { type Kysely, sql } from 'kysely'

const TRIPS_REMINDERS = '2026-11-25T0019-health-forms-trips-reminders'
const RSVP_UNIT = `alter table "rsvp_events" add column "unit" text not null default 'both' check ("unit" in ('pack', 'troop', 'both'))`
const RSVP_REMINDERS = `
  create table "rsvp_reminders" (
    "uid" text not null references "rsvp_events" ("uid") on delete cascade,
    "household_id" integer not null references "households" ("id") on delete cascade,
    "kind" text not null check ("kind" in ('before_start', 'before_close')),
    "queued_at" text not null,
    primary key ("uid", "household_id", "kind")
  )`

/** Each old name, the name that replaced it, and the statements (copied from the replacement) it lacks. */
export const RENAMED_MIGRATIONS: Record<string, { by: string; missing: string[] }> = {
  // 68046f3, renamed by 605aa6b and replaced by c1a05ca.
  '2026-11-25T0019-health-form-date': {
    by: TRIPS_REMINDERS,
    missing: [
      `alter table "households" add column "emergency_name" text`,
      `alter table "households" add column "emergency_phone" text`,
      RSVP_UNIT,
      RSVP_REMINDERS,
    ],
  },
  // 605aa6b, replaced by c1a05ca.
  '2026-11-25T0019-health-form-date-emergency-contact': { by: TRIPS_REMINDERS, missing: [RSVP_UNIT, RSVP_REMINDERS] },
  // 622c6bf, replaced by b3cb23b.
  '2026-11-25T0024-action-log-actor': {
    by: '2026-11-25T0024-read-indexes',
    missing: [`create index "scouts_unit_den" on "scouts" ("unit_id", "den")`],
  },
}

/** Brings a database that ran a renamed migration to what its replacement makes, in one transaction; true if any. */
export async function repairRenamedMigrations(db: Kysely<any>): Promise<boolean> {
  const { rows: table } = await sql`select 1 from sqlite_master where name = 'kysely_migration'`.execute(db)
  if (table.length === 0) return false
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
  const found = rows.map((r) => r.name).filter((name) => name in RENAMED_MIGRATIONS)
  if (found.length === 0) return false
  await db.transaction().execute(async (trx) => {
    for (const old of found) {
      const { by, missing } = RENAMED_MIGRATIONS[old]!
      for (const statement of missing) await sql.raw(statement).execute(trx)
      await sql`update kysely_migration set name = ${by} where name = ${old}`.execute(trx)
    }
  })
  return true
}
