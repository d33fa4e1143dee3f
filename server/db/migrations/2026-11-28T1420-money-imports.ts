// A fundraiser-credits import's preview: the lines read from its file (JSON), until applied or an hour has passed.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "money_imports" (
      "id" text primary key, "person_id" integer references "people" ("id") on delete cascade, "actor" text not null,
      "unit_id" integer references "units" ("id"), "lines" text not null,
      "created_at" text not null, "expires_at" text not null, "applied_at" text
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('money_imports').execute()
}
