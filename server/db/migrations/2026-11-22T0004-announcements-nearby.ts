// Site announcements (state is computed, never stored) and the directory of nearby units.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('announcements')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute()

  await db.schema
    .createTable('nearby_units')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit_type', 'text', (c) => c.notNull())
    .addColumn('unit_number', 'text')
    .addColumn('town', 'text')
    .addColumn('meeting_place', 'text')
    .addColumn('meeting_day', 'text')
    .addColumn('meeting_time', 'text')
    .addColumn('website', 'text')
    .addColumn('contact_email', 'text')
    .addColumn('notes', 'text')
    .addColumn('verified_at', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('announcements').execute()
  await db.schema.dropTable('nearby_units').execute()
}
