// POST /api/reset/:token: set a new password with a one-time link; every session of that person ends.
import { endSessionsOf } from '../../../server/auth/sessions.ts'
import { sha256 } from '../../../server/auth/tokens.ts'
import { gone, notFound } from '../../../server/errors.ts'
import { record } from '../../../server/history/record.ts'
import { defineRoute } from '../../../server/routes.ts'
import { nowIso, Password, t } from '../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'public',
  summary: 'Set a new password with a reset link; ends every session of that person',
  params: t.Object({ token: t.String({ maxLength: 100 }) }),
  body: t.Object({ password: Password }, { additionalProperties: false }),
  async handler({ db, params, body }) {
    const link = await db.selectFrom('reset_links').selectAll().where('token_hash', '=', sha256(params.token)).executeTakeFirst()
    if (!link) throw notFound('No such reset link')
    if (link.used_at || link.revoked_at || Date.parse(link.expires_at) <= Date.now())
      throw gone('This reset link has expired or was already used; ask for a new one')
    const hash = await Bun.password.hash(body.password)
    const email = await db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('reset_links')
        .set({ used_at: nowIso() })
        .where('id', '=', link.id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      if (!Number(used.numUpdatedRows)) throw gone('This reset link was already used')
      const person = await trx
        .updateTable('people')
        .set({ password_hash: hash })
        .where('id', '=', link.person_id)
        .returning('email')
        .executeTakeFirstOrThrow()
      await endSessionsOf(trx, link.person_id)
      await record(trx, person.email, 'people.password_reset', 'Set a new password with a reset link; every session ended')
      return person.email
    })
    return { email, reset: true }
  },
})
