// The second step of a sign-in: after a right password, a code from the authenticator app, a recovery code or a
// passkey completes it within the ticket's five minutes and five tries (wrong codes count as failed sign-ins); and a
// sign-in with a passkey alone, which is both factors at once.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import { codeAttempt, type Throttles } from '../account/attempts.ts'
import { type From, openSession, refuseSlowedDown, SECOND_FACTOR_METHODS } from '../account/sign-in.ts'
import type { Throttle } from '../auth/login-throttle.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { badRequest, gone, unauthorized } from '../errors.ts'
import { Line, t } from '../schemas.ts'
import { useCode } from './factors.ts'
import { AuthenticationResponse, authenticationOptions, usePasskey } from './passkeys.ts'
import { failTicket, newTicket, openTicket, useTicket } from './tickets.ts'

/** The kinds of second factor a person has (confirmed ones only). */
export async function confirmedFactorKinds(db: Executor, personId: number): Promise<{ kind: 'totp' | 'passkey' }[]> {
  return db.selectFrom('second_factors').select('kind').where('person_id', '=', personId).where('confirmed_at', 'is not', null).execute()
}

/** The ticket a right password earns a person with a second factor: what they may answer with, and the passkey challenge. */
export async function askSecondFactor(db: Db, env: Readonly<Env>, personId: number, factors: { kind: 'totp' | 'passkey' }[]) {
  const passkey = factors.some((f) => f.kind === 'passkey') ? await authenticationOptions(db, env, personId) : null
  const ticket = await newTicket(db, personId, passkey?.challenge ?? null)
  const methods = SECOND_FACTOR_METHODS.filter(
    (m) => m === 'recovery_code' || (m === 'totp' && factors.some((f) => f.kind === 'totp')) || (m === 'passkey' && passkey),
  )
  return { ticket, methods, passkey }
}

export const SecondFactorAnswer = t.Object(
  {
    ticket: t.Optional(t.String({ maxLength: 100, description: 'From the answer of POST /login (a form post carries it in a cookie)' })),
    code: t.Optional(Line(20, { minLength: 1, description: 'Six digits from the authenticator app, or a recovery code' })),
    passkey: t.Optional(AuthenticationResponse),
    next: t.Optional(t.String({ maxLength: 500, description: 'Form posts only: the page of this site to go on to' })),
  },
  { additionalProperties: false, examples: [{ ticket: 'b1Jx…', code: '492039' }] },
)

const WITH = { 'authenticator app': 'an authenticator app', 'recovery code': 'a recovery code', passkey: 'a passkey' } as const

/**
 * Completes a sign-in with its second factor: a session (its token) and the person; 401 for a wrong answer (the
 * ticket loses a try), 410 for a dead ticket, 429 while slowed down.
 */
export async function completeSignIn(
  db: Db,
  env: Readonly<Env>,
  throttles: Throttles,
  input: { ticket: string; code?: string; passkey?: unknown },
  from: From,
) {
  if ((input.code === undefined) === (input.passkey === undefined)) throw badRequest('Send either code or passkey')
  const ticket = await openTicket(db, input.ticket)
  if (ticket.person_id === null) throw gone('This sign-in has no password step; sign in again')
  const person = await db
    .selectFrom('people')
    .select(['id', 'email', 'disabled_at'])
    .where('id', '=', ticket.person_id)
    .executeTakeFirstOrThrow()
  if (person.disabled_at) throw gone('This sign-in has expired or had too many wrong codes; sign in again')
  const token = await codeAttempt(db, throttles, { address: from.address, email: person.email, what: 'Wrong second factor' }, () =>
    write(db, async (trx) => {
      const how = input.code
        ? await useCode(trx, person.id, input.code)
        : (await usePasskey(trx, env, ticket.challenge ?? '', input.passkey as AuthenticationResponseJSON, person.id)) && 'passkey'
      if (!how) {
        unchanged(trx)
        return null
      }
      await useTicket(trx, ticket.id)
      return openSession(trx, person, from, ` with ${WITH[how]}`)
    }),
  )
  if (token) return { token, person: { id: person.id, email: person.email } }
  const left = await failTicket(db, ticket.id)
  throw unauthorized(
    left
      ? `That ${input.code ? 'code' : 'passkey'} did not work; ${left} ${left === 1 ? 'try' : 'tries'} left`
      : 'Too many wrong codes; sign in again',
  )
}

export const PasskeySignInOptions = t.Object(
  {
    ticket: t.String({ description: 'Send it back with the passkey answer to POST /login/passkey, within 5 minutes' }),
    options: t.Unknown({ description: 'For navigator.credentials.get() (startAuthentication of @simplewebauthn/browser)' }),
  },
  {
    additionalProperties: false,
    examples: [{ ticket: 'b1Jx…', options: { challenge: 'dGhpcy…', rpId: 'pack123.example.org', userVerification: 'required' } }],
  },
)

/** A challenge for a sign-in with a passkey alone (the passkey names the person). */
export async function passkeySignInOptions(db: Db, env: Readonly<Env>) {
  const options = await authenticationOptions(db, env, null)
  return { ticket: await newTicket(db, null, options.challenge), options }
}

export const PasskeySignIn = t.Object(
  { ticket: t.String({ maxLength: 100 }), response: AuthenticationResponse },
  {
    additionalProperties: false,
    examples: [
      {
        ticket: 'b1Jx…',
        response: {
          id: 'p6s0bVkU9x1E3q',
          rawId: 'p6s0bVkU9x1E3q',
          type: 'public-key',
          response: {
            clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
            authenticatorData: 'SZYN5YgO',
            signature: 'MEUCIQ',
            userHandle: 'MTQ',
          },
          clientExtensionResults: {},
        },
      },
    ],
  },
)

/** Signs in with a passkey alone (user verification required): a session and the person; 401 when it does not verify. */
export async function signInWithPasskey(db: Db, env: Readonly<Env>, throttle: Throttle, input: typeof PasskeySignIn.static, from: From) {
  const ticket = await openTicket(db, input.ticket)
  if (ticket.person_id !== null || !ticket.challenge) throw gone('This sign-in is not a passkey sign-in; start again')
  const slowed = throttle.begin(from.address, null)
  if (slowed) await refuseSlowedDown(db, slowed, null, from.address)
  let outcome: 'passed' | 'failed' = 'failed'
  try {
    const signedIn = await write(db, async (trx) => {
      const passkey = await usePasskey(trx, env, ticket.challenge!, input.response as AuthenticationResponseJSON, null)
      const person =
        passkey &&
        (await trx.selectFrom('people').select(['id', 'email', 'disabled_at']).where('id', '=', passkey.person_id).executeTakeFirst())
      if (!person || person.disabled_at) {
        unchanged(trx)
        return null
      }
      await useTicket(trx, ticket.id)
      return { token: await openSession(trx, person, from, ' with a passkey'), person: { id: person.id, email: person.email } }
    })
    if (signedIn) {
      outcome = 'passed'
      return signedIn
    }
  } finally {
    throttle.finish(from.address, null, outcome)
  }
  await failTicket(db, ticket.id)
  await record(db, 'anonymous', 'login.failure', `A passkey that did not work, from ${from.address ?? 'an unknown address'}`)
  throw unauthorized('That passkey is not one of this site’s, or it could not be checked')
}
