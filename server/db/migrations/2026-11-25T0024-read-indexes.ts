// Indexes that keep two dashboard reads from growing with the data: a person's history entries newest first with
// their kind (the summary's "your use" reads only the caller's most recent ones), and scouts by unit and den (the
// roster's den counts).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index "action_log_actor" on "action_log" ("actor", "at", "kind")`.execute(db)
  await sql`create index "scouts_unit_den" on "scouts" ("unit_id", "den")`.execute(db)
}
