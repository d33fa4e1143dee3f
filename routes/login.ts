// POST /login: email and password (JSON or form) → a new site_session cookie.
import { t } from '../server/schemas.ts'
import { cookieValue } from '../server/auth/credential.ts'
import { sameSitePath } from '../server/auth/next-path.ts'
import { createSession, SESSION_COOKIE, sessionCookie } from '../server/auth/sessions.ts'
import { sha256 } from '../server/auth/tokens.ts'
import { tooMany, unauthorized } from '../server/errors.ts'
import { record } from '../server/history/record.ts'
import { normaliseEmail } from '../server/people/queries.ts'
import { defineRoute } from '../server/routes.ts'

// Verified against when the email is unknown, so both answers take as long.
const DUMMY_HASH = await Bun.password.hash('not-a-real-password')

export const POST = defineRoute({
  auth: 'public',
  summary: 'Sign in with email and password; sets the site_session cookie',
  body: t.Object(
    { email: t.String({ maxLength: 254 }), password: t.String({ maxLength: 200 }), next: t.Optional(t.String({ maxLength: 500 })) },
    { additionalProperties: false },
  ),
  async handler({ db, env, body, address, request, set, loginThrottle }) {
    const email = normaliseEmail(body.email)
    const wait = loginThrottle.begin(address, email)
    if (wait > 0) {
      await record(db, 'anonymous', 'login.failure', `Sign-in for ${email} from ${address ?? 'unknown'} slowed down`)
      throw tooMany('Too many failed sign-ins; wait a moment and try again', wait)
    }
    let ok = false
    let person
    try {
      person = await db
        .selectFrom('people')
        .select(['id', 'email', 'password_hash', 'disabled_at'])
        .where('email', '=', email)
        .executeTakeFirst()
      ok = (await Bun.password.verify(body.password, person?.password_hash ?? DUMMY_HASH)) && !!person && !person.disabled_at
    } finally {
      loginThrottle.finish(address, email, ok)
    }
    if (!ok || !person) {
      await record(db, 'anonymous', 'login.failure', `Failed sign-in for ${email} from ${address ?? 'unknown'}`)
      throw unauthorized('Wrong email or password')
    }
    const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const token = await db.transaction().execute(async (trx) => {
      if (previous) await trx.deleteFrom('sessions').where('token_hash', '=', sha256(previous)).execute()
      await record(trx, person.email, 'login.success', `Signed in from ${address ?? 'unknown'}`)
      return createSession(trx, person.id, address, request.headers.get('user-agent'))
    })
    set.headers['set-cookie'] = sessionCookie(token, env.publicBaseUrl)
    if ((request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
      set.status = 303
      set.headers.location = sameSitePath(body.next)
      return ''
    }
    return { person: { id: person.id, email: person.email } }
  },
})
