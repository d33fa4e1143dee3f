// POST /api/admin/account/password: change your own password; your other sessions end.
import { unprocessable } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { defineRoute } from '../../../../server/routes.ts'
import { closeResetLinks } from '../../../../server/people/guards.ts'
import { nowIso, Password, t } from '../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'account:self',
  summary: 'Change your password (current password required); your other sessions and open reset links end',
  body: t.Object({ current_password: t.String({ maxLength: 200 }), new_password: Password }, { additionalProperties: false }),
  async handler({ db, body, caller }) {
    const me = caller.person!
    const row = await db.selectFrom('people').select('password_hash').where('id', '=', me.id).executeTakeFirstOrThrow()
    if (!(await Bun.password.verify(body.current_password, row.password_hash)))
      throw unprocessable('current_password: is not your current password')
    const hash = await Bun.password.hash(body.new_password)
    const ended = await db.transaction().execute(async (trx) => {
      await trx.updateTable('people').set({ password_hash: hash }).where('id', '=', me.id).execute()
      // A reset link issued before would undo the change: it closes with it.
      await closeResetLinks(trx, me.id, nowIso())
      let q = trx.deleteFrom('sessions').where('person_id', '=', me.id)
      if (caller.sessionId) q = q.where('id', '!=', caller.sessionId)
      const result = await q.executeTakeFirst()
      await record(trx, caller.actor, 'account.password', 'Changed their password; other sessions ended')
      return Number(result.numDeletedRows)
    })
    return { changed: true, other_sessions_ended: ended }
  },
})
