// The first-owner setup link: printed on a start with no owner, so a new install needs no CLI; using it
// creates the first owner and signs them in.
import { type Client, createSession } from '../auth/sessions.ts'
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { gone } from '../errors.ts'
import { Email, Line, nowIso, Password, t } from '../schemas.ts'
import { createAccount } from './accounts.ts'
import { hashPassword } from '../auth/passwords.ts'
import { openLink, useLink } from './one-time-links.ts'
import { normaliseEmail } from './queries.ts'

export async function hasOwner(db: Executor): Promise<boolean> {
  return !!(await db.selectFrom('people').select('id').where('global_role', '=', 'owner').executeTakeFirst())
}

/** A fresh one-time setup URL (earlier unused ones stop working), or null when an owner exists. */
export async function newSetupLink(db: Db, publicBaseUrl: string): Promise<string | null> {
  if (await hasOwner(db)) return null
  const token = randomToken()
  await write(db, async (trx) => {
    await trx.deleteFrom('setup_tokens').where('used_at', 'is', null).execute()
    await trx
      .insertInto('setup_tokens')
      .values({ token_hash: sha256(token), created_at: nowIso() })
      .execute()
    await record(trx, 'system', 'people.setup_link', 'Printed a one-time link to create the first owner')
  })
  return `${publicBaseUrl}/setup/${token}`
}

export const FirstOwner = t.Object(
  { email: Email, password: Password, name: t.Optional(Line(100)) },
  {
    additionalProperties: false,
    examples: [{ email: 'committee.chair@example.org', password: 'correct horse battery', name: 'Alex Kim' }],
  },
)
export const OwnerCreated = t.Object(
  { email: t.String() },
  { additionalProperties: false, examples: [{ email: 'committee.chair@example.org' }] },
)

/** Creates the first owner with the setup link, once (410 once used or once an owner exists); a session token for them. */
export async function completeSetup(db: Db, token: string, input: typeof FirstOwner.static, from: Client) {
  const link = await openLink(db, 'setup_tokens', token, 'setup link')
  if (await hasOwner(db)) throw gone('This setup link was already used')
  const email = normaliseEmail(input.email)
  const passwordHash = await hashPassword(input.password)
  return write(db, async (trx) => {
    await useLink(trx, 'setup_tokens', link.id, 'setup link')
    const personId = await createAccount(trx, {
      email,
      name: input.name?.trim() || null,
      password_hash: passwordHash,
      global_role: 'owner',
      units: [],
    })
    await record(trx, email, 'people.setup', 'Created the first owner with the setup link')
    return { email, personId, token: await createSession(trx, personId, from) }
  })
}
