// Password-reset links: issued by someone who could grant every role the person holds, valid 24 hours, shown
// once; the old password works until the link is used, and using it ends every session of that person.
import type { Caller } from '../auth/credential.ts'
import { endSessionsOf } from '../auth/sessions.ts'
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { notFound } from '../errors.ts'
import { Instant, nowIso, Password, t } from '../schemas.ts'
import { assertMayReset } from './grants.ts'
import { assertIssuerStillMay, issuedBy } from './link-issuers.ts'
import { closeResetLinks } from './guards.ts'
import { openLink, useLink } from './one-time-links.ts'
import { loadPerson } from './queries.ts'

const VALID_HOURS = 24

export const ResetIssued = t.Object(
  {
    id: t.Integer(),
    person_id: t.Integer(),
    email: t.String(),
    expires_at: Instant,
    url: t.String({ description: '{PUBLIC_BASE_URL}/reset/{token}: shown this once; give it to the person yourself' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 4,
        person_id: 14,
        email: 'robin.hale@example.org',
        expires_at: '2026-11-24T08:00:00.000Z',
        url: 'https://pack123.example.org/reset/Qm9…',
      },
    ],
  },
)

export const NewPassword = t.Object(
  { password: Password },
  { additionalProperties: false, examples: [{ password: 'a longer, fresher phrase' }] },
)
export const ResetDone = t.Object(
  { email: t.String(), reset: t.Literal(true) },
  { additionalProperties: false, examples: [{ email: 'robin.hale@example.org', reset: true }] },
)

/** A new one-time link (earlier ones close); 403 for someone the caller could not grant, or a disabled person. */
export async function issueResetLink(db: Db, caller: Caller, personId: number, publicBaseUrl: string) {
  const person = await loadPerson(db, personId)
  if (!person) throw notFound('No such person')
  await assertMayReset(db, caller, person)
  const token = randomToken()
  const link = await write(db, async (trx) => {
    const now = nowIso()
    await closeResetLinks(trx, personId, now)
    const row = await trx
      .insertInto('reset_links')
      .values({
        token_hash: sha256(token),
        person_id: personId,
        created_by: caller.actor,
        ...issuedBy(caller),
        created_at: now,
        expires_at: new Date(Date.now() + VALID_HOURS * 3_600_000).toISOString(),
      })
      .returning(['id', 'expires_at'])
      .executeTakeFirstOrThrow()
    await record(trx, caller.actor, 'people.reset', `Issued a password-reset link for ${person.email}`)
    return row
  })
  return { id: link.id, person_id: personId, email: person.email, expires_at: link.expires_at, url: `${publicBaseUrl}/reset/${token}` }
}

/** Sets the new password with a link, once; every session of that person ends. */
export async function useResetLink(db: Db, token: string, input: typeof NewPassword.static) {
  const link = await openLink(db, 'reset_links', token, 'reset link')
  await assertIssuerStillMay(db, link, 'reset link', async (issuer) => {
    const person = await loadPerson(db, link.person_id)
    if (!person) throw notFound('No such person')
    await assertMayReset(db, issuer, person)
  })
  const hash = await Bun.password.hash(input.password)
  return write(db, async (trx) => {
    await useLink(trx, 'reset_links', link.id, 'reset link')
    const person = await trx
      .updateTable('people')
      .set({ password_hash: hash })
      .where('id', '=', link.person_id)
      .returning('email')
      .executeTakeFirstOrThrow()
    await endSessionsOf(trx, link.person_id)
    await record(trx, person.email, 'people.password_reset', 'Set a new password with a reset link; every session ended')
    return { email: person.email, reset: true as const }
  })
}
