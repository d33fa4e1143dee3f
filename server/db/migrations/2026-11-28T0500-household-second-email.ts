// A second parent's email gets its own column: the roster import used to keep it inside second_parent as
// "Name <email>"; that address moves here (lower-cased) and only the name stays in second_parent.
import { type Kysely, sql } from 'kysely'

const ANGLED = /^(.*?)\s*<\s*([^<>\s@]+@[^<>\s@]+)\s*>\s*$/

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "households" add column "second_email" text`.execute(db)
  const rows = await sql<{ id: number; second_parent: string }>`
    select "id", "second_parent" from "households" where "second_parent" like '%<%@%>%'`.execute(db)
  for (const row of rows.rows) {
    const m = ANGLED.exec(row.second_parent)
    if (!m) continue
    const name = m[1].trim() || null
    await sql`update "households" set "second_parent" = ${name}, "second_email" = ${m[2].toLowerCase()}
      where "id" = ${row.id}`.execute(db)
  }
}
