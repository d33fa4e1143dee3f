// Signing in and out: the password check under the sign-in slow-down, then a session, or a ticket for the second
// factor when the person has one; ending a session.
import { recordSlowedDown, type Slowed, type Throttle } from '../auth/login-throttle.ts'
import { type Client, createSession } from '../auth/sessions.ts'
import { sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, type Trx, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { askSecondFactor, confirmedFactorKinds } from '../second-factor/sign-in.ts'
import { forbidden, tooMany, unauthorized } from '../errors.ts'
import { normaliseEmail } from '../people/queries.ts'
import { NO_HIDDEN_CHARACTERS, OneOf, t, withMessage } from '../schemas.ts'

// Verified against when the email is unknown, so both answers take as long.
const DUMMY_HASH = await Bun.password.hash('not-a-real-password')

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

/** 429 for an attempt the slow-down holds back, logged once a minute per slowed-down key with the count. */
export async function refuseSlowedDown(db: Executor, slowed: Slowed, email: string | null, address: string | null): Promise<never> {
  const from = address ?? 'an unknown address'
  const whose = { address: `from ${from}`, pair: `for ${email} from ${from}`, subject: `for ${email} from any address` }[slowed.tally.by]
  await recordSlowedDown(
    db,
    'login.failure',
    slowed.tally,
    (count) => `Sign-ins ${whose} slowed down after repeated failures: ${count} refused in a minute`,
  )
  throw tooMany('Too many failed sign-ins; wait a moment and try again', slowed.seconds)
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
    rightPassword = (await Bun.password.verify(input.password, person?.password_hash ?? DUMMY_HASH)) && !!person
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
    await record(trx, session.email, 'logout', 'Signed out')
  })
}
