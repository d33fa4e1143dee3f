// Who issued each invite and reset link (the person, and the key when a key did), so using a link can check that
// its issuer could still issue it, and disabling or demoting someone closes the links they issued.
import { type Kysely, sql } from 'kysely'

// The DDL as SQLite keeps it: written once, frozen since.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['invites', 'reset_links']) {
    await sql`alter table ${sql.table(table)} add column "issuer_person_id" integer references "people" ("id")`.execute(db)
    await sql`alter table ${sql.table(table)} add column "issuer_key_id" integer references "api_keys" ("id")`.execute(db)
    await sql`create index ${sql.raw(`"${table}_issuer"`)} on ${sql.table(table)} ("issuer_person_id")`.execute(db)
  }
  // Links issued before: their issuer from the actor recorded with them (an email, or `key:label#id (email)`).
  // A link whose issuer cannot be told stays without one, and using it is refused (410).
  const people = new Map((await db.selectFrom('people').select(['id', 'email']).execute()).map((p) => [p.email, p.id]))
  const keyOwners = new Map((await db.selectFrom('api_keys').select(['id', 'person_id']).execute()).map((k) => [k.id, k.person_id]))
  for (const [table, column] of [
    ['invites', 'invited_by'],
    ['reset_links', 'created_by'],
  ]) {
    const open = await db.selectFrom(table).select(['id', column]).where('used_at', 'is', null).where('revoked_at', 'is', null).execute()
    for (const link of open) {
      const actor: string = link[column]
      const key = /#(\d+) \(([^()]*)\)$/.exec(actor)
      const issuer = key ? { person: people.get(key[2]), key: Number(key[1]) } : { person: people.get(actor), key: null }
      if (issuer.person === undefined || (issuer.key !== null && keyOwners.get(issuer.key) !== issuer.person)) continue
      await db.updateTable(table).set({ issuer_person_id: issuer.person, issuer_key_id: issuer.key }).where('id', '=', link.id).execute()
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['invites', 'reset_links']) {
    await sql`drop index ${sql.raw(`"${table}_issuer"`)}`.execute(db)
    await sql`alter table ${sql.table(table)} drop column "issuer_key_id"`.execute(db)
    await sql`alter table ${sql.table(table)} drop column "issuer_person_id"`.execute(db)
  }
}
