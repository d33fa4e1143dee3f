// "Confirm it's you": a session proves it is its person again (password, an authenticator or recovery code, or a
// passkey) before it may add a second factor, start or remove the authenticator app, make recovery codes or mint a
// key. A confirmation lasts ten minutes; signing in does not count, so a cookie stolen just after a sign-in is not
// enough to take the account over for good.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { badRequest, forbidden, unprocessable } from '../errors.ts'
import { Instant, Line, t } from '../schemas.ts'
import { useCode } from '../second-factor/codes.ts'
import { AuthenticationResponse, authenticationOptions, keepChallenge, usePasskey } from '../second-factor/passkeys.ts'
import { codeAttempt, passwordAttempt, type Throttles } from './attempts.ts'

export const CONFIRM_MS = 10 * 60_000

export const Confirmation = t.Object(
  {
    password: t.Optional(t.String({ maxLength: 200, description: 'Your password' })),
    code: t.Optional(Line(20, { minLength: 1, description: 'Six digits from your authenticator app, or a recovery code' })),
    passkey: t.Optional(AuthenticationResponse),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of password, code or passkey (the answer to POST /api/admin/account/confirm/options)',
    examples: [{ password: 'correct horse battery' }],
  },
)

export const Confirmed = t.Object(
  { confirmed_until: Instant },
  { additionalProperties: false, examples: [{ confirmed_until: '2026-11-28T10:10:00.000Z' }] },
)

/** 403 confirm_required unless the caller's session confirmed it is its person in the last ten minutes. */
export async function assertConfirmed(db: Executor, caller: Caller): Promise<void> {
  // Keys and the break-glass token never reach these routes (session only, or a capability no key carries).
  if (caller.via !== 'session' || caller.sessionId === null) return
  const row = await db.selectFrom('sessions').select('confirmed_at').where('id', '=', caller.sessionId).executeTakeFirst()
  if (row?.confirmed_at && Date.now() - Date.parse(row.confirmed_at) < CONFIRM_MS) return
  throw forbidden('Confirm it is you first (POST /api/admin/account/confirm with your password, a code or a passkey)', 'confirm_required')
}

/** A challenge for confirming with one of your passkeys (kept five minutes, in place of any open one). */
export async function confirmOptions(db: Db, env: Readonly<Env>, caller: Caller) {
  const personId = caller.person!.id
  const options = await authenticationOptions(db, env, personId)
  await keepChallenge(db, personId, options.challenge)
  return options
}

const HOW = {
  password: 'their password',
  'authenticator app': 'their authenticator app',
  'recovery code': 'a recovery code',
  passkey: 'a passkey',
}

/**
 * Marks the caller's session confirmed for ten minutes, given their password, a code or a passkey: 422 when it is
 * wrong (under the same slow-downs as signing in, logged as a failed sign-in), 400 for none or several.
 */
export async function confirmSession(
  db: Db,
  env: Readonly<Env>,
  throttles: Throttles,
  caller: Caller,
  address: string | null,
  input: typeof Confirmation.static,
) {
  const given = [input.password, input.code, input.passkey].filter((v) => v !== undefined).length
  if (given !== 1) throw badRequest('Send exactly one of password, code or passkey')
  const person = caller.person!
  const mark = (trx: Executor, how: keyof typeof HOW) => markConfirmed(trx, caller, how)
  if (input.password !== undefined) {
    const from = { address, personId: person.id, email: person.email, what: 'Wrong password to confirm it is them' }
    if (!(await passwordAttempt(db, throttles.signIn, from, input.password))) throw unprocessable('password: is not your password')
    return write(db, (trx) => mark(trx, 'password'))
  }
  const confirmed = await codeAttempt(db, throttles, { address, email: person.email, what: 'Wrong code to confirm it is them' }, () =>
    write(db, async (trx) => {
      const how =
        input.code !== undefined ? await useCode(trx, person.id, input.code) : await passkeyAnswer(trx, env, person.id, input.passkey)
      if (!how) {
        unchanged(trx)
        return null
      }
      return mark(trx, how)
    }),
  )
  if (!confirmed)
    throw unprocessable(
      input.code !== undefined ? 'code: is not a current code or one of your recovery codes' : 'passkey: did not verify; try again',
    )
  return confirmed
}

/** Checks a passkey against the person's open confirm challenge (used up either way). */
async function passkeyAnswer(trx: Executor, env: Readonly<Env>, personId: number, response: unknown) {
  const pending = await trx.selectFrom('passkey_challenges').selectAll().where('person_id', '=', personId).executeTakeFirst()
  await trx.deleteFrom('passkey_challenges').where('person_id', '=', personId).execute()
  if (!pending || Date.parse(pending.expires_at) <= Date.now()) return null
  return (await usePasskey(trx, env, pending.challenge, response as AuthenticationResponseJSON, personId)) ? ('passkey' as const) : null
}

async function markConfirmed(trx: Executor, caller: Caller, how: keyof typeof HOW) {
  const now = new Date()
  await trx.updateTable('sessions').set({ confirmed_at: now.toISOString() }).where('id', '=', caller.sessionId!).execute()
  await record(trx, caller.actor, 'account.confirm', `Confirmed it is them with ${HOW[how]}`)
  return { confirmed_until: new Date(now.getTime() + CONFIRM_MS).toISOString() }
}
