// Posts the external publisher reports for the social page, with their image bytes.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "social_posts" (
      "id" text primary key, "unit" text not null, "status" text not null, "page_id" text, "social_post_id" text,
      "message" text not null, "link" text, "scheduled_for" text not null, "queue_file" text, "cancel_url" text,
      "image_ref" text, "image" blob, "image_mime" text, "image_sha256" text, "reported_at" text not null,
      "updated_at" text not null
    )`.execute(db)
  await sql`create index "social_posts_scheduled" on "social_posts" ("scheduled_for")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('social_posts').execute()
}
