// Password-reset links; the roster: households, their linked accounts, scouts and the yearly checklist.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reset_links')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('person_id', 'integer', (c) => c.notNull().references('people.id'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute()

  await db.schema
    .createTable('households')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('parent_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('second_parent', 'text')
    .addColumn('notes', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lead_id', 'integer', (c) => c.unique().references('leads.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('household_people')
    .addColumn('household_id', 'integer', (c) => c.notNull().references('households.id'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('people.id'))
    .addPrimaryKeyConstraint('household_people_pk', ['household_id', 'person_id'])
    .execute()
  await db.schema.createIndex('household_people_person').on('household_people').column('person_id').execute()

  await db.schema
    .createTable('scouts')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('household_id', 'integer', (c) => c.notNull().references('households.id'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text')
    .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id'))
    .addColumn('den', 'text')
    .addColumn('org_member_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('scouts_household').on('scouts').column('household_id').execute()

  await db.schema
    .createTable('checks')
    .addColumn('scout_id', 'integer', (c) => c.notNull().references('scouts.id'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('recorded_by', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('checks_pk', ['scout_id', 'year', 'item'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['checks', 'scouts', 'household_people', 'households', 'reset_links']) await db.schema.dropTable(table).execute()
}
