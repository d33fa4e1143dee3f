// What the site mails a person on its own: for a unit leader, an alert for each new lead of their unit.
import type { Caller } from '../auth/credential.ts'
import { leadsAUnit } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import { record, unchanged, write } from '../db/write.ts'
import { t } from '../schemas.ts'

export const MailPreferences = t.Object(
  {
    lead_alerts: t.Boolean({ description: 'A mail for each family that sends the join form about a unit you lead' }),
  },
  { additionalProperties: false, examples: [{ lead_alerts: true }] },
)

export const MailPreferencesView = t.Object(
  {
    lead_alerts: t.Boolean({ description: 'A mail for each family that sends the join form about a unit you lead' }),
    leads_a_unit: t.Boolean({ description: 'You lead a unit, so lead alerts apply to you' }),
  },
  { additionalProperties: false, examples: [{ lead_alerts: true, leads_a_unit: true }] },
)

export async function mailPreferences(db: Db, caller: Caller) {
  const person = await db.selectFrom('people').select('lead_alerts').where('id', '=', caller.person!.id).executeTakeFirstOrThrow()
  return { lead_alerts: person.lead_alerts === 1, leads_a_unit: leadsAUnit(caller.person) }
}

export async function setMailPreferences(db: Db, caller: Caller, input: typeof MailPreferences.static) {
  await write(db, async (trx) => {
    const changed = await trx
      .updateTable('people')
      .set({ lead_alerts: input.lead_alerts ? 1 : 0 })
      .where('id', '=', caller.person!.id)
      .where('lead_alerts', '!=', input.lead_alerts ? 1 : 0)
      .executeTakeFirst()
    if (!Number(changed.numUpdatedRows)) return unchanged(trx)
    await record(trx, caller.actor, 'account.mail', `Turned ${input.lead_alerts ? 'on' : 'off'} the mails about new leads`)
  })
  return mailPreferences(db, caller)
}
