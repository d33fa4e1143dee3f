// POST /api/admin/people/invite: a one-time invite link (shown once; no mail is sent), valid 14 days.
import { randomToken, sha256 } from '../../../../../server/auth/tokens.ts'
import { conflict } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { assertMayGrant, type UnitGrant } from '../../../../../server/people/grants.ts'
import { normaliseEmail } from '../../../../../server/people/queries.ts'
import { GlobalRoleSchema, UnitGrantSchema } from '../../../../../server/people/schemas.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { Email, nowIso, t } from '../../../../../server/schemas.ts'

const INVITE_DAYS = 14

export const POST = defineRoute({
  auth: 'people:invite_leader',
  summary: 'Invite a person by email with roles; answers the one-time invite URL once',
  body: t.Object(
    { email: Email, global_role: t.Optional(GlobalRoleSchema), units: t.Optional(t.Array(UnitGrantSchema, { maxItems: 20 })) },
    { additionalProperties: false },
  ),
  async handler({ db, env, caller, body, set }) {
    const email = normaliseEmail(body.email)
    const globalRole = body.global_role ?? null
    const units = body.units ?? []
    await assertMayGrant(db, caller, globalRole, units)
    const token = randomToken()
    const invite = await db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('people').select('id').where('email', '=', email).executeTakeFirst()
      if (existing) throw conflict('A person with this email already has an account')
      const now = nowIso()
      // Replacing an open invite revokes it, so the rule for revoking applies: you may only take back what you could grant.
      const open = await trx
        .selectFrom('invites')
        .select(['id', 'global_role', 'units'])
        .where('email', '=', email)
        .where('revoked_at', 'is', null)
        .where('used_at', 'is', null)
        .execute()
      for (const earlier of open) await assertMayGrant(trx, caller, earlier.global_role, JSON.parse(earlier.units) as UnitGrant[])
      const revoked = await trx
        .updateTable('invites')
        .set({ revoked_at: now })
        .where('email', '=', email)
        .where('revoked_at', 'is', null)
        .where('used_at', 'is', null)
        .executeTakeFirst()
      const row = await trx
        .insertInto('invites')
        .values({
          token_hash: sha256(token),
          email,
          global_role: globalRole,
          units: JSON.stringify(units),
          invited_by: caller.actor,
          created_at: now,
          expires_at: new Date(Date.now() + INVITE_DAYS * 86_400_000).toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      const replaced = Number(revoked.numUpdatedRows) ? ' (earlier invite revoked)' : ''
      await record(
        trx,
        caller.actor,
        'people.invite',
        `Invited ${email} as ${[globalRole, ...units.map((u) => `${u.role} of unit ${u.unit_id}`)].filter(Boolean).join(', ') || 'member'}${replaced}`,
      )
      return row
    })
    set.status = 201
    return {
      id: invite.id,
      email,
      global_role: globalRole,
      units,
      expires_at: invite.expires_at,
      url: `${env.publicBaseUrl}/invite/${token}`,
    }
  },
})
