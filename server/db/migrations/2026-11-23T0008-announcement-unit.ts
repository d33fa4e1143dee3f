// Announcements name the unit they are for (pack, troop or both); the ones made before are for both.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "announcements" add column "unit" text default 'both' not null check ("unit" in ('pack', 'troop', 'both'))`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('announcements').dropColumn('unit').execute()
}
