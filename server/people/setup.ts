// The first-owner setup link: printed on a start with no owner, so a new install needs no CLI.
import type { Db } from '../db/client.ts'
import { randomToken, sha256 } from '../auth/tokens.ts'
import { nowIso } from '../schemas.ts'

export async function hasOwner(db: Db): Promise<boolean> {
  return !!(await db.selectFrom('people').select('id').where('global_role', '=', 'owner').executeTakeFirst())
}

/** A fresh one-time setup URL (earlier unused ones stop working), or null when an owner exists. */
export async function newSetupLink(db: Db, publicBaseUrl: string): Promise<string | null> {
  if (await hasOwner(db)) return null
  const token = randomToken()
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('setup_tokens').where('used_at', 'is', null).execute()
    await trx
      .insertInto('setup_tokens')
      .values({ token_hash: sha256(token), created_at: nowIso() })
      .execute()
  })
  return `${publicBaseUrl}/setup/${token}`
}
