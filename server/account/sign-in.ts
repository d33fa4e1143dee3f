// Signing in and out: the password check under the sign-in slow-down, then a session, or a ticket for the second
// factor when the person has one; the second step (a code from the authenticator app, a recovery code or a passkey
// within the ticket's five minutes and five tries, wrong codes counting as failed sign-ins); a sign-in with a passkey
// alone, which is both factors at once; ending a session.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { Throttle } from '../auth/login-throttle.ts'
import { type Client, createSession } from '../auth/sessions.ts'
import { sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, type Trx, unchanged, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { badRequest, forbidden, gone, unauthorized } from '../errors.ts'
import { normaliseEmail } from '../people/queries.ts'
import { Line, NO_HIDDEN_CHARACTERS, OneOf, t, withMessage } from '../schemas.ts'
import { useCode } from '../second-factor/codes.ts'
import { AuthenticationResponse, authenticationOptions, usePasskey } from '../second-factor/passkeys.ts'
import { failTicket, newTicket, openTicket, useTicket } from '../second-factor/tickets.ts'
import { codeAttempt, refuseSlowedDown, type Throttles } from './attempts.ts'
import { hashPassword, verifyPassword } from '../auth/passwords.ts'
import { endPushOfSessions } from '../push/subscriptions.ts'

// Verified against when the email is unknown, so both answers take as long.
const DUMMY_HASH = await hashPassword('not-a-real-password')

export const Credentials = t.Object(
  {
    email: withMessage(
      // Not the email format: an owner made on the command line may have an address it refuses. Hidden characters
      // would disguise the address where the history shows it; an invite refuses them too.
      t.String({ maxLength: 254, pattern: NO_HIDDEN_CHARACTERS }),
      'must not hold control, format or other invisible characters',
    ),
    password: t.String({ maxLength: 200 }),
    next: t.Optional(t.String({ maxLength: 500, description: 'Form posts only: the page of this site to go on to' })),
  },
  { additionalProperties: false, examples: [{ email: 'akela@example.org', password: 'correct horse battery' }] },
)

export const SignedIn = t.Object(
  {
    person: t.Object({ id: t.Integer(), email: t.String() }, { additionalProperties: false }),
    start: OneOf(['/admin/', '/family/'] as const, {
      description: "Where this person's pages start: the admin dashboard, or the family page for a family account",
    }),
  },
  { additionalProperties: false, examples: [{ person: { id: 3, email: 'akela@example.org' }, start: '/admin/' }] },
)

export const SignedOut = t.Object({ signed_out: t.Literal(true) }, { additionalProperties: false, examples: [{ signed_out: true }] })

export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery_code'] as const

export const SecondFactorAsked = t.Object(
  {
    second_factor: t.Object(
      {
        ticket: t.String({ description: 'Send it to POST /login/second-factor with the code or the passkey answer, within 5 minutes' }),
        methods: t.Array(OneOf(SECOND_FACTOR_METHODS), { description: 'What this person can answer with' }),
        passkey: t.Union([t.Object({ challenge: t.String() }, { additionalProperties: true }), t.Null()], {
          description: 'Options for navigator.credentials.get() (startAuthentication of @simplewebauthn/browser) when a passkey may answer',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ second_factor: { ticket: 'b1Jx…', methods: ['totp', 'recovery_code'], passkey: null } }],
  },
)

/** Who is signing in, from where: what a new session records. */
export interface From extends Client {
  /** The token of a session this browser already had: it ends, so every sign-in starts afresh. */
  previous: string | null
}

/** A new session for a person who proved who they are (`how`, for the history), in the caller's transaction: its token. */
export async function openSession(trx: Trx, person: { id: number; email: string }, from: From, how: string): Promise<string> {
  if (from.previous) await trx.deleteFrom('sessions').where('token_hash', '=', sha256(from.previous)).execute()
  await record(trx, person.email, 'login.success', `Signed in${how} from ${from.address ?? 'unknown'}`)
  return createSession(trx, person.id, from)
}

/**
 * Checks the password under the slow-down (429). A person without a second factor gets a session (its token); one
 * with a second factor gets a ticket for it instead (`second_factor`), and no session yet.
 */
export async function signIn(db: Db, env: Readonly<Env>, throttle: Throttle, input: typeof Credentials.static, from: From) {
  const email = normaliseEmail(input.email)
  const slowed = throttle.begin(from.address, email)
  if (slowed) await refuseSlowedDown(db, slowed, email, from.address)
  let rightPassword = false
  let person
  let factors: { kind: 'totp' | 'passkey' }[] = []
  try {
    person = await db
      .selectFrom('people')
      .select(['id', 'email', 'password_hash', 'disabled_at'])
      .where('email', '=', email)
      .executeTakeFirst()
    rightPassword = (await verifyPassword(input.password, person?.password_hash ?? DUMMY_HASH)) && !!person
    if (rightPassword && !person!.disabled_at) factors = await confirmedFactorKinds(db, person!.id)
  } finally {
    // A right password still waiting for its second factor is no success yet: the slow-down keeps counting.
    const passed = rightPassword && !person!.disabled_at
    throttle.finish(from.address, email, !passed ? 'failed' : factors.length ? 'pending' : 'passed')
  }
  const where = from.address ?? 'an unknown address'
  if (!rightPassword || !person) {
    await record(db, 'anonymous', 'login.failure', `Failed sign-in for ${email} from ${where}`)
    throw unauthorized('Wrong email or password')
  }
  // Only someone who knows the password learns that the account is disabled, so they know whom to ask.
  if (person.disabled_at) {
    await record(
      db,
      'anonymous',
      'login.failure',
      `Sign-in with the right password refused for ${email} from ${where}: the account is disabled`,
    )
    throw forbidden('This account is disabled; ask a leader of your unit to enable it again')
  }
  if (factors.length) return { kind: 'second_factor' as const, second_factor: await askSecondFactor(db, env, person.id, factors) }
  const signedIn = person
  const token = await write(db, (trx) => openSession(trx, signedIn, from, ''))
  return { kind: 'session' as const, token, person: { id: signedIn.id, email: signedIn.email } }
}

/** Ends the session a cookie token names, if it is live. */
export async function signOut(db: Db, token: string | null): Promise<void> {
  const session = token
    ? await db
        .selectFrom('sessions')
        .innerJoin('people', 'people.id', 'sessions.person_id')
        .select(['sessions.id', 'people.email'])
        .where('sessions.token_hash', '=', sha256(token))
        .executeTakeFirst()
    : undefined
  if (!session) return
  await write(db, async (trx) => {
    await trx.deleteFrom('sessions').where('id', '=', session.id).execute()
    await endPushOfSessions(trx, [session.id])
    await record(trx, session.email, 'logout', 'Signed out')
  })
}

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
