// Join-form leads with their claim, spam caught by the honeypot, and each lead's copies to outside targets.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('parent_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('scout_name', 'text')
    .addColumn('scout_grade', 'text')
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('claimed_by', 'integer', (c) => c.references('people.id'))
    .addColumn('claimed_at', 'text')
    .execute()
  await db.schema.createIndex('leads_claimed_by').on('leads').column('claimed_by').execute()

  await db.schema
    .createTable('join_spam')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('mirror_copies')
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_attempt_at', 'text')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('mirror_copies_pk', ['lead_id', 'target'])
    .execute()
  await db.schema.createIndex('mirror_copies_status').on('mirror_copies').columns(['status', 'target']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mirror_copies', 'join_spam', 'leads']) await db.schema.dropTable(table).execute()
}
