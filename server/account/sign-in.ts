// Signing in and out: the password check under the sign-in slow-down, a new session, and ending one.
import { recordSlowedDown, type Throttle } from '../auth/login-throttle.ts'
import { type Client, createSession } from '../auth/sessions.ts'
import { sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { tooMany, unauthorized } from '../errors.ts'
import { normaliseEmail } from '../people/queries.ts'
import { OneOf, t, withMessage } from '../schemas.ts'

// Verified against when the email is unknown, so both answers take as long.
const DUMMY_HASH = await Bun.password.hash('not-a-real-password')

export const Credentials = t.Object(
  {
    email: withMessage(
      // Control, line-separator and text-direction characters would disguise the address where the history shows it.
      t.String({
        maxLength: 254,
        pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff]*$',
      }),
      'must not hold control or text-direction characters',
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

interface From extends Client {
  /** The token of a session this browser already had: it ends, so every sign-in starts afresh. */
  previous: string | null
}

/** Checks the password under the slow-down (429), and opens a session: its token and the person. */
export async function signIn(db: Db, throttle: Throttle, input: typeof Credentials.static, from: From) {
  const email = normaliseEmail(input.email)
  const address = from.address ?? 'an unknown address'
  const slowed = throttle.begin(from.address, email)
  if (slowed) {
    const whose = { address: `from ${address}`, pair: `for ${email} from ${address}`, subject: `for ${email} from any address` }[
      slowed.tally.by
    ]
    await recordSlowedDown(
      db,
      'login.failure',
      slowed.tally,
      (count) => `Sign-ins ${whose} slowed down after repeated failures: ${count} refused in a minute`,
    )
    throw tooMany('Too many failed sign-ins; wait a moment and try again', slowed.seconds)
  }
  let ok = false
  let person
  try {
    person = await db
      .selectFrom('people')
      .select(['id', 'email', 'password_hash', 'disabled_at'])
      .where('email', '=', email)
      .executeTakeFirst()
    ok = (await Bun.password.verify(input.password, person?.password_hash ?? DUMMY_HASH)) && !!person && !person.disabled_at
  } finally {
    throttle.finish(from.address, email, ok)
  }
  if (!ok || !person) {
    await record(db, 'anonymous', 'login.failure', `Failed sign-in for ${email} from ${address}`)
    throw unauthorized('Wrong email or password')
  }
  const signedIn = person
  const token = await write(db, async (trx) => {
    if (from.previous) await trx.deleteFrom('sessions').where('token_hash', '=', sha256(from.previous)).execute()
    await record(trx, signedIn.email, 'login.success', `Signed in from ${from.address ?? 'unknown'}`)
    return createSession(trx, signedIn.id, from)
  })
  return { token, person: { id: signedIn.id, email: signedIn.email } }
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
