// Lead search from an index instead of reading every lead (and an index for the household made from a lead): an FTS5 table with the trigram tokenizer (any
// substring of 3 or more characters, case and accents ignored) over the searchable fields, kept by triggers.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create virtual table "leads_search" using fts5(
      "parent_name", "email", "phone", "message", "scout_name",
      content = 'leads', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
    )`.execute(db)
  await sql`
    create trigger "leads_search_insert" after insert on "leads" begin
      insert into "leads_search" ("rowid", "parent_name", "email", "phone", "message", "scout_name")
      values (new."id", new."parent_name", new."email", new."phone", new."message", new."scout_name");
    end`.execute(db)
  await sql`
    create trigger "leads_search_delete" after delete on "leads" begin
      insert into "leads_search" ("leads_search", "rowid", "parent_name", "email", "phone", "message", "scout_name")
      values ('delete', old."id", old."parent_name", old."email", old."phone", old."message", old."scout_name");
    end`.execute(db)
  await sql`
    create trigger "leads_search_update" after update of "parent_name", "email", "phone", "message", "scout_name" on "leads" begin
      insert into "leads_search" ("leads_search", "rowid", "parent_name", "email", "phone", "message", "scout_name")
      values ('delete', old."id", old."parent_name", old."email", old."phone", old."message", old."scout_name");
      insert into "leads_search" ("rowid", "parent_name", "email", "phone", "message", "scout_name")
      values (new."id", new."parent_name", new."email", new."phone", new."message", new."scout_name");
    end`.execute(db)
  await sql`insert into "leads_search" ("leads_search") values ('rebuild')`.execute(db)
  // Each listed lead says whether a household was made from it: without this index, a look through every household.
  await sql`create index "households_lead" on "households" ("lead_id")`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index "households_lead"`.execute(db)
  for (const trigger of ['leads_search_update', 'leads_search_delete', 'leads_search_insert'])
    await sql.raw(`drop trigger "${trigger}"`).execute(db)
  await sql`drop table "leads_search"`.execute(db)
}
