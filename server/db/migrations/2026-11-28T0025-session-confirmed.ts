// When a session last confirmed who holds it (password, code or passkey): adding a second factor or minting a key
// needs one in the last ten minutes, so a stolen cookie alone cannot take the account over for good.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('confirmed_at', 'text').execute()
}
