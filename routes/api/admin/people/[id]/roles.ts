// PUT /api/admin/people/:id/roles: replace a person's global role and unit roles (owner only; an owner must remain).
import { record } from '../../../../../server/history/record.ts'
import { assertMayGrant } from '../../../../../server/people/grants.ts'
import { assertAnotherOwner, targetPerson } from '../../../../../server/people/guards.ts'
import { loadPerson } from '../../../../../server/people/queries.ts'
import { GlobalRoleSchema, UnitGrantSchema } from '../../../../../server/people/schemas.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, parseId, t } from '../../../../../server/schemas.ts'

export const PUT = defineRoute({
  auth: 'people:manage',
  summary: "Replace a person's roles: global_role and the full list of unit roles (409 if no owner would remain)",
  params: IdParams,
  body: t.Object({ global_role: GlobalRoleSchema, units: t.Array(UnitGrantSchema, { maxItems: 20 }) }, { additionalProperties: false }),
  async handler({ db, params, body, caller }) {
    const id = parseId(params.id)
    await assertMayGrant(db, caller, body.global_role, body.units)
    await db.transaction().execute(async (trx) => {
      const person = await targetPerson(trx, id)
      if (person.global_role === 'owner' && body.global_role !== 'owner') await assertAnotherOwner(trx, id, 'This change')
      await trx.updateTable('people').set({ global_role: body.global_role }).where('id', '=', id).execute()
      await trx.deleteFrom('memberships').where('person_id', '=', id).execute()
      for (const u of body.units)
        await trx
          .insertInto('memberships')
          .values({ person_id: id, unit_id: u.unit_id, role: u.role, title: u.title ?? null })
          .execute()
      const roles = [body.global_role, ...body.units.map((u) => `${u.role} of unit ${u.unit_id}`)].filter(Boolean).join(', ') || 'no roles'
      await record(trx, caller.actor, 'people.roles', `Set the roles of ${person.email}: ${roles}`)
    })
    return { person: await loadPerson(db, id) }
  },
})
