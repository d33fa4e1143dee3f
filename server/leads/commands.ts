// Holding join-form leads: the claim (one conditional update, so of two racers exactly one wins) and the release.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { findLead } from './queries.ts'

/** Takes an unclaimed lead; 409 when anyone holds it (taking over means release, then claim). */
export function claimLead(db: Db, caller: Caller, id: number) {
  const me = caller.person!
  return write(db, async (trx) => {
    const taken = await trx
      .updateTable('leads')
      .set({ claimed_by: me.id, claimed_at: nowIso() })
      .where('id', '=', id)
      .where('claimed_by', 'is', null)
      .executeTakeFirst()
    const lead = await findLead(trx, id)
    if (!Number(taken.numUpdatedRows))
      throw lead.claimed_by?.id === me.id
        ? conflict('You already hold this lead', 'already_claimed')
        : conflict(`${lead.claimed_by?.email} holds this lead; they can release it`, 'claimed_by_other')
    await record(trx, caller.actor, 'leads.claim', `Claimed the lead from ${lead.parent_name}`)
    return { lead }
  })
}

/** The holder, or someone with people:manage, lets a lead go; 403 for anyone else, 409 when nobody holds it. */
export function releaseLead(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const lead = await findLead(trx, id)
    if (!lead.claimed_by) throw conflict('Nobody holds this lead')
    const holder = lead.claimed_by.id === caller.person!.id
    if (!holder && !caller.capabilities.has('people:manage'))
      throw forbidden(`${lead.claimed_by.email} holds this lead; only they or an owner can release it`)
    await trx.updateTable('leads').set({ claimed_by: null, claimed_at: null }).where('id', '=', id).execute()
    await record(
      trx,
      caller.actor,
      'leads.release',
      `Released the lead from ${lead.parent_name}${holder ? '' : ` (${lead.claimed_by.email} held it)`}`,
    )
    return { lead: { ...lead, claimed_by: null, claimed_at: null } }
  })
}
