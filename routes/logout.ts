// POST /logout: ends the current session and clears the cookie.
import { cookieValue } from '../server/auth/credential.ts'
import { clearedSessionCookie, SESSION_COOKIE } from '../server/auth/sessions.ts'
import { sha256 } from '../server/auth/tokens.ts'
import { record } from '../server/history/record.ts'
import { defineRoute } from '../server/routes.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Sign out: ends this session',
  async handler({ db, env, request, set }) {
    const token = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
    const session = token
      ? await db
          .selectFrom('sessions')
          .innerJoin('people', 'people.id', 'sessions.person_id')
          .select(['sessions.id', 'people.email'])
          .where('sessions.token_hash', '=', sha256(token))
          .executeTakeFirst()
      : undefined
    if (session)
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sessions').where('id', '=', session.id).execute()
        await record(trx, session.email, 'logout', 'Signed out')
      })
    set.headers['set-cookie'] = clearedSessionCookie(env.publicBaseUrl)
    if ((request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
      set.status = 303
      set.headers.location = '/'
      return ''
    }
    return { signed_out: true }
  },
})
