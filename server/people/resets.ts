// Password-reset links: issued by someone who could grant every role the person holds, valid 24 hours, shown
// once; the old password works until the link is used, and using it ends every session of that person.
import type { Caller } from '../auth/credential.ts'
import { endSessionsOf } from '../auth/sessions.ts'
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import { record, type Trx, write } from '../db/write.ts'
import { notFound } from '../errors.ts'
import { Email, Instant, nowIso, OneTime, Password, t } from '../schemas.ts'
import { assertMayReset } from './grants.ts'
import { assertIssuerStillMay, type IssuedBy, issuedBy } from './link-issuers.ts'
import { closeResetLinks } from './guards.ts'
import { assertMayMailLink, queueResetMail } from './link-mails.ts'
import type { MailSender } from '../mail/sender.ts'
import { openLink, useLink } from './one-time-links.ts'
import { loadPerson } from '../auth/person.ts'
import { normaliseEmail } from './queries.ts'
import { revokeKeysOf } from '../keys/keys.ts'
import { hashPassword } from '../auth/passwords.ts'

const VALID_HOURS = 24

export const ResetIssued = t.Object(
  {
    id: t.Integer(),
    person_id: t.Integer(),
    email: t.String(),
    expires_at: Instant,
    url: OneTime(
      t.String({ description: '{PUBLIC_BASE_URL}/reset/{token}: shown this once; give it to the person yourself unless it is emailed' }),
    ),
    emailed: t.Boolean({ description: 'The link was queued to be mailed to the person (send_email)' }),
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
        emailed: false,
      },
    ],
  },
)

export const ResetRequest = t.Object(
  {
    send_email: t.Optional(
      t.Boolean({ description: 'Also mail the link to the person (409 while mail is not set up); without it nothing is mailed' }),
    ),
  },
  { additionalProperties: false, examples: [{ send_email: true }] },
)

export const NewPassword = t.Object(
  { password: Password },
  { additionalProperties: false, examples: [{ password: 'a longer, fresher phrase' }] },
)
export const ResetDone = t.Object(
  { email: t.String(), reset: t.Literal(true) },
  { additionalProperties: false, examples: [{ email: 'robin.hale@example.org', reset: true }] },
)

/**
 * Stores a new link for `token`, valid `validMs`, after closing the person's earlier ones: all of them for a leader's
 * link, only those the person asked for for their own.
 */
async function newResetLink(
  trx: Trx,
  personId: number,
  token: string,
  validMs: number,
  by: IssuedBy & { created_by: string; asked_by_self: 0 | 1 },
) {
  const now = nowIso()
  await closeResetLinks(trx, personId, now, { onlyAskedBySelf: by.asked_by_self === 1 })
  return trx
    .insertInto('reset_links')
    .values({
      token_hash: sha256(token),
      person_id: personId,
      ...by,
      created_at: now,
      expires_at: new Date(Date.parse(now) + validMs).toISOString(),
    })
    .returning(['id', 'expires_at'])
    .executeTakeFirstOrThrow()
}

/**
 * A new one-time link (earlier ones close), also queued to the person with `send_email`; 403 for someone the caller
 * could not grant, or a disabled person.
 */
export async function issueResetLink(
  db: Db,
  caller: Caller,
  personId: number,
  input: typeof ResetRequest.static,
  publicBaseUrl: string,
  mail: MailSender | null,
) {
  const person = await loadPerson(db, personId)
  if (!person) throw notFound('No such person')
  if (input.send_email) await assertMayMailLink(db, mail, person.email)
  await assertMayReset(db, caller, person)
  const token = randomToken()
  const url = `${publicBaseUrl}/reset/${token}`
  const link = await write(db, async (trx) => {
    const row = await newResetLink(trx, personId, token, VALID_HOURS * 3_600_000, {
      created_by: caller.actor,
      ...issuedBy(caller),
      asked_by_self: 0,
    })
    if (input.send_email) await queueResetMail(trx, person.email, url, row.expires_at, caller)
    await record(
      trx,
      caller.actor,
      'people.reset',
      `Issued a password-reset link for ${person.email}${input.send_email ? ', by email' : ''}`,
    )
    return row
  })
  if (input.send_email) mail?.wake()
  return { id: link.id, person_id: personId, email: person.email, expires_at: link.expires_at, url, emailed: Boolean(input.send_email) }
}

const SELF_VALID_MINUTES = 60

export const ForgotRequest = t.Object({ email: Email }, { additionalProperties: false, examples: [{ email: 'robin.hale@example.org' }] })

/**
 * "Forgot your password?": mails a link valid one hour to an active account with this address (the links it mailed
 * before close) and does nothing for any other address; the caller answers the same either way. Its own issuer, so
 * disabling the person or a change of roles closes it like any reset link.
 */
export async function askForReset(
  db: Db,
  input: typeof ForgotRequest.static,
  from: string | null,
  publicBaseUrl: string,
  mail: MailSender,
) {
  const email = normaliseEmail(input.email)
  const person = await db.selectFrom('people').select('id').where('email', '=', email).where('disabled_at', 'is', null).executeTakeFirst()
  if (!person) return
  const token = randomToken()
  const url = `${publicBaseUrl}/reset/${token}`
  await write(db, async (trx) => {
    const row = await newResetLink(trx, person.id, token, SELF_VALID_MINUTES * 60_000, {
      created_by: 'anonymous',
      issuer_person_id: person.id,
      issuer_key_id: null,
      asked_by_self: 1,
    })
    await queueResetMail(trx, email, url, row.expires_at, 'self')
    // Whoever asked is not known to be the person: the entry names the address it came from, not them.
    await record(
      trx,
      'anonymous',
      'people.forgot',
      `A reset link for ${email} was asked for on the sign-in page, from ${from ?? 'an unknown address'}`,
    )
  })
  mail.wake()
}

/** A reset link that works now (404 unknown, 410 used, expired or closed). */
async function openResetLink(db: Db, token: string) {
  const link = await openLink(db, 'reset_links', token, 'reset link')
  // A link the person asked for needs only the person, still active; a leader's needs the leader's rights today.
  await assertIssuerStillMay(db, link, 'reset link', async (issuer) => {
    if (link.asked_by_self) return
    const person = await loadPerson(db, link.person_id)
    if (!person) throw notFound('No such person')
    await assertMayReset(db, issuer, person)
  })
  return link
}

/** Whose password a working reset link sets, for its page. */
export async function resetLinkFor(db: Db, token: string) {
  const link = await openResetLink(db, token)
  const person = await db.selectFrom('people').select('email').where('id', '=', link.person_id).executeTakeFirstOrThrow()
  return { email: person.email, expires_at: link.expires_at }
}

/** Sets the new password with a link, once; every session of that person ends and every key of theirs is revoked. */
export async function useResetLink(db: Db, token: string, input: typeof NewPassword.static) {
  const link = await openResetLink(db, token)
  const hash = await hashPassword(input.password)
  return write(db, async (trx) => {
    await useLink(trx, 'reset_links', link.id, 'reset link')
    const person = await trx
      .updateTable('people')
      .set({ password_hash: hash })
      .where('id', '=', link.person_id)
      .returning('email')
      .executeTakeFirstOrThrow()
    await endSessionsOf(trx, link.person_id)
    // A reset is an account recovery: whoever took the account may have minted keys with it.
    const keys = await revokeKeysOf(trx, link.person_id, nowIso())
    const also = keys ? `; ${keys === 1 ? 'their key was' : `their ${keys} keys were`} revoked` : ''
    await record(trx, person.email, 'people.password_reset', `Set a new password with a reset link; every session ended${also}`)
    return { email: person.email, reset: true as const }
  })
}
