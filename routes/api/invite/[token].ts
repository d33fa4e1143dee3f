// POST /api/invite/:token: accept an invite, creating the account with its roles (signed in at once).
import { createSession, sessionCookie } from '../../../server/auth/sessions.ts'
import { sha256 } from '../../../server/auth/tokens.ts'
import { gone, notFound } from '../../../server/errors.ts'
import { record } from '../../../server/history/record.ts'
import { createAccount } from '../../../server/people/accounts.ts'
import type { UnitGrant } from '../../../server/people/grants.ts'
import { defineRoute } from '../../../server/routes.ts'
import { nowIso, Password, t } from '../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Accept an invite: set a password and create the account',
  params: t.Object({ token: t.String({ maxLength: 100 }) }),
  body: t.Object({ password: Password, name: t.Optional(t.String({ maxLength: 100 })) }, { additionalProperties: false }),
  async handler({ db, env, params, body, address, request, set }) {
    const invite = await db.selectFrom('invites').selectAll().where('token_hash', '=', sha256(params.token)).executeTakeFirst()
    if (!invite) throw notFound('No such invite')
    if (invite.revoked_at || invite.used_at || Date.parse(invite.expires_at) <= Date.now())
      throw gone('This invite link has expired, was revoked or was already used; ask for a new one')
    const { personId, token } = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('invites')
        .set({ used_at: nowIso() })
        .where('id', '=', invite.id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      if (!Number(claimed.numUpdatedRows)) throw gone('This invite link was already used')
      const personId = await createAccount(trx, {
        email: invite.email,
        name: body.name?.trim() || null,
        password: body.password,
        global_role: invite.global_role,
        units: JSON.parse(invite.units) as UnitGrant[],
      })
      await trx.updateTable('invites').set({ person_id: personId }).where('id', '=', invite.id).execute()
      await record(trx, invite.email, 'people.join', `Accepted invite #${invite.id} from ${invite.invited_by}`)
      return { personId, token: await createSession(trx, personId, address, request.headers.get('user-agent')) }
    })
    set.status = 201
    set.headers['set-cookie'] = sessionCookie(token, env.publicBaseUrl)
    return { id: personId, email: invite.email }
  },
})
