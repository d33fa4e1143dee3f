// A person's history entries, newest first, with their kind: the dashboard's "your use" reads only the caller's
// most recent entries through it, so its cost does not grow with how much one person has changed over the years.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index "action_log_actor" on "action_log" ("actor", "at", "kind")`.execute(db)
}
