// POST /api/admin/people/:id/reset: a one-time password-reset link (shown once), valid 24 hours.
import { randomToken, sha256 } from '../../../../../server/auth/tokens.ts'
import { forbidden, notFound } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { assertMayTakeOver } from '../../../../../server/people/grants.ts'
import { closeResetLinks } from '../../../../../server/people/guards.ts'
import { loadPerson } from '../../../../../server/people/queries.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, nowIso, parseId } from '../../../../../server/schemas.ts'

const VALID_HOURS = 24

export const POST = defineRoute({
  auth: 'people:invite_admin',
  summary:
    'Issue a one-time reset link for someone whose roles you could grant (an owner needs people:manage); the old password works until it is used',
  params: IdParams,
  async handler({ db, env, params, caller, set }) {
    const id = parseId(params.id)
    const person = await loadPerson(db, id)
    if (!person) throw notFound('No such person')
    await assertMayTakeOver(db, caller, person)
    if (person.disabled) throw forbidden('This person is disabled; enable them first')
    const token = randomToken()
    const link = await db.transaction().execute(async (trx) => {
      const now = nowIso()
      await closeResetLinks(trx, id, now)
      const row = await trx
        .insertInto('reset_links')
        .values({
          token_hash: sha256(token),
          person_id: id,
          created_by: caller.actor,
          created_at: now,
          expires_at: new Date(Date.now() + VALID_HOURS * 3_600_000).toISOString(),
        })
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'people.reset', `Issued a password-reset link for ${person.email}`)
      return row
    })
    set.status = 201
    return { id: link.id, person_id: id, email: person.email, expires_at: link.expires_at, url: `${env.publicBaseUrl}/reset/${token}` }
  },
})
