// Posts the external publisher reports for the social page, with their image bytes.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('social_posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('social_post_id', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('scheduled_for', 'text', (c) => c.notNull())
    .addColumn('queue_file', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('image_ref', 'text')
    .addColumn('image', 'blob')
    .addColumn('image_mime', 'text')
    .addColumn('image_sha256', 'text')
    .addColumn('reported_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('social_posts_scheduled').on('social_posts').column('scheduled_for').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('social_posts').execute()
}
