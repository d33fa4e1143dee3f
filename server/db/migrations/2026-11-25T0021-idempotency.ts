// The first answer to each POST sent with an Idempotency-Key, per credential, so a client's retry gets the same
// answer instead of doing the work twice; the nightly upkeep deletes those older than a day.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table "idempotency_keys" (
      "credential" text not null,
      "key" text not null,
      "fingerprint" text not null,
      "status" integer not null,
      "content_type" text,
      "body" blob not null,
      "created_at" text not null,
      primary key ("credential", "key")
    )`.execute(db)
  await sql`create index "idempotency_keys_created_at" on "idempotency_keys" ("created_at")`.execute(db)
}
