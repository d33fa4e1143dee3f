// POST /api/admin/leads/:id/claim: take an unclaimed lead; one conditional update, so one of two racers wins.
import { conflict, notFound } from '../../../../../server/errors.ts'
import { record } from '../../../../../server/history/record.ts'
import { findLead } from '../../../../../server/leads/queries.ts'
import { defineRoute } from '../../../../../server/routes.ts'
import { IdParams, nowIso, parseId } from '../../../../../server/schemas.ts'

export const POST = defineRoute({
  auth: 'leads:read',
  person: true,
  summary: 'Claim an unclaimed lead (409 when anyone holds it)',
  params: IdParams,
  async handler({ db, params, caller }) {
    const id = parseId(params.id)
    return db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('leads')
        .set({ claimed_by: caller.person!.id, claimed_at: nowIso() })
        .where('id', '=', id)
        .where('claimed_by', 'is', null)
        .executeTakeFirst()
      const lead = await findLead(trx, id)
      if (!lead) throw notFound('No such lead')
      if (!Number(taken.numUpdatedRows))
        throw conflict(
          lead.claimed_by?.id === caller.person!.id
            ? 'You already hold this lead'
            : `${lead.claimed_by?.email} holds this lead; they can release it`,
        )
      await record(trx, caller.actor, 'leads.claim', `Claimed lead #${id} (${lead.parent_name})`)
      return { lead }
    })
  },
})
