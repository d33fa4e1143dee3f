// POST /api/setup/:token: create the first owner with the one-time link printed on first start.
import { createSession, sessionCookie } from '../../../server/auth/sessions.ts'
import { sha256 } from '../../../server/auth/tokens.ts'
import { gone, notFound } from '../../../server/errors.ts'
import { record } from '../../../server/history/record.ts'
import { createAccount } from '../../../server/people/accounts.ts'
import { normaliseEmail } from '../../../server/people/queries.ts'
import { hasOwner } from '../../../server/people/setup.ts'
import { defineRoute } from '../../../server/routes.ts'
import { Email, nowIso, Password, t } from '../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Create the first owner with the setup link',
  params: t.Object({ token: t.String({ maxLength: 100 }) }),
  body: t.Object({ email: Email, password: Password, name: t.Optional(t.String({ maxLength: 100 })) }, { additionalProperties: false }),
  async handler({ db, env, params, body, address, request, set }) {
    const row = await db.selectFrom('setup_tokens').selectAll().where('token_hash', '=', sha256(params.token)).executeTakeFirst()
    if (!row) throw notFound('No such setup link')
    if (row.used_at || (await hasOwner(db))) throw gone('This setup link was already used')
    const email = normaliseEmail(body.email)
    const token = await db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('setup_tokens')
        .set({ used_at: nowIso() })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst()
      if (!Number(used.numUpdatedRows)) throw gone('This setup link was already used')
      const personId = await createAccount(trx, {
        email,
        name: body.name?.trim() || null,
        password: body.password,
        global_role: 'owner',
        units: [],
      })
      await record(trx, email, 'people.setup', 'Created the first owner with the setup link')
      return createSession(trx, personId, address, request.headers.get('user-agent'))
    })
    set.status = 201
    set.headers['set-cookie'] = sessionCookie(token, env.publicBaseUrl)
    return { email }
  },
})
