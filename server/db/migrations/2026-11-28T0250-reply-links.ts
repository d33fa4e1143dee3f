// The server's own secrets, made once here: `reply_link` keys the HMAC of the reply links in mail (/reply/<token>), so a
// link needs no row per mail, a resend gives a working link, and replacing the secret makes every link dead at once.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  await sql`insert into server_secrets (name, secret, created_at) values ('reply_link', ${secret}, ${new Date().toISOString()})`.execute(db)
}
