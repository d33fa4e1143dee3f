// POST /api/admin/leads/:id/release: the holder (or someone with people:manage) lets a lead go.
import { conflict, forbidden, notFound } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { findLead } from '../../../../../server/leads/queries.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, parseId } from '../../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'leads:read',
  person: true,
  summary: 'Release a claimed lead (the holder, or people:manage)',
  params: IdParams,
  async handler({ db, params, caller }) {
    const id = parseId(params.id)
    return db.transaction().execute(async (trx) => {
      const lead = await findLead(trx, id)
      if (!lead) throw notFound('No such lead')
      if (!lead.claimed_by) throw conflict('Nobody holds this lead')
      const holder = lead.claimed_by.id === caller.person!.id
      if (!holder && !caller.capabilities.has('people:manage'))
        throw forbidden(`${lead.claimed_by.email} holds this lead; only they or an owner can release it`)
      await trx.updateTable('leads').set({ claimed_by: null, claimed_at: null }).where('id', '=', id).execute()
      await record(trx, caller.actor, 'leads.release', `Released lead #${id}${holder ? '' : ` held by ${lead.claimed_by.email}`}`)
      return { lead: { ...lead, claimed_by: null, claimed_at: null } }
    })
  },
})
