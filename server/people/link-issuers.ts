// Who issued an invite or reset link, and whether they could issue it still: a link works only while its issuer's
// credential (the person, or the key they used, as it is now) could issue the same link today, and disabling or
// demoting someone, or revoking their key, closes the links they issued.
import { type Caller, keyCallerOf, personCallerOf } from '../auth/credential.ts'
import { secondFactorStatus } from '../auth/second-factor-policy.ts'
import type { Executor } from '../db/database.ts'
import { gone, HttpError } from '../errors.ts'
import { loadPerson } from '../auth/person.ts'

export interface IssuedBy {
  issuer_person_id: number | null
  issuer_key_id: number | null
}

/** The issuer columns of a link the caller issues now. */
export const issuedBy = (caller: Caller): IssuedBy => ({
  issuer_person_id: caller.person?.id ?? null,
  issuer_key_id: caller.key?.id ?? null,
})

/** The issuer as a credential today, or null when the person is disabled or the key revoked, expired or gone. */
async function issuerNow(db: Executor, link: IssuedBy): Promise<Caller | null> {
  if (link.issuer_person_id === null) return null
  const person = await loadPerson(db, link.issuer_person_id)
  if (!person || person.disabled) return null
  if (link.issuer_key_id === null) return personCallerOf(person)
  const key = await db
    .selectFrom('api_keys')
    .select(['id', 'label', 'scopes', 'expires_at', 'revoked_at'])
    .where('id', '=', link.issuer_key_id)
    .where('person_id', '=', person.id)
    .executeTakeFirst()
  if (!key || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= Date.now())) return null
  return keyCallerOf(person, key, await secondFactorStatus(db, person))
}

/**
 * 410, as for a used link, unless the link's issuer could issue it now: `may` is the rule that was checked when
 * it was issued, and throws when the issuer may not.
 */
export async function assertIssuerStillMay(db: Executor, link: IssuedBy, what: string, may: (issuer: Caller) => Promise<void>) {
  const closed = gone(`This ${what} was closed: whoever gave it can no longer give it; ask for a new one`)
  const issuer = await issuerNow(db, link)
  if (!issuer) throw closed
  try {
    await may(issuer)
  } catch (error) {
    throw error instanceof HttpError ? closed : error
  }
}

/** Closes every open invite and reset link issued by a person, or through one key; returns how many. */
export async function closeLinksIssued(db: Executor, by: { personId: number } | { keyId: number }, now: string): Promise<number> {
  let closed = 0
  for (const table of ['invites', 'reset_links'] as const) {
    const result = await db
      .updateTable(table)
      .set({ revoked_at: now })
      .where('personId' in by ? 'issuer_person_id' : 'issuer_key_id', '=', 'personId' in by ? by.personId : by.keyId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    closed += Number(result.numUpdatedRows)
  }
  return closed
}
