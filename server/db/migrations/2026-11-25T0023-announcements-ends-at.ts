// Announcements by the end of their window: the live cap, the summary and the create's answer read only the
// announcements not yet ended, so their cost does not grow with the years of expired ones.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index "announcements_ends_at" on "announcements" ("ends_at")`.execute(db)
}
