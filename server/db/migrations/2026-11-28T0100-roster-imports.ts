// Roster import previews: the rows a CSV file gave, kept for an hour until a leader applies them. Only the fields the
// roster holds are kept, and the retention pruning deletes a preview a day after it expired.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('roster_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'integer')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('unit_id', 'integer')
    .addColumn('rows', 'text', (c) => c.notNull())
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text')
    .execute()
  await db.schema.createIndex('roster_imports_expires').on('roster_imports').column('expires_at').execute()
}
