// A leader's choice to show their email beside their name on the public unit page (hidden until they choose).
import type { Caller } from '../auth/credential.ts'
import { leadsAUnit } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import { record, unchanged, write } from '../db/write.ts'
import { t } from '../schemas.ts'

export const AccountChange = t.Object(
  { show_email: t.Boolean({ description: 'Show your email beside your name on the public page of each unit you lead' }) },
  { additionalProperties: false, examples: [{ show_email: true }] },
)

export const AccountView = t.Object(
  {
    email: t.String(),
    show_email: t.Boolean({ description: 'Your email shows on the public page of each unit you lead' }),
    leads_a_unit: t.Boolean({ description: 'You lead a unit, so its public page names you' }),
  },
  { additionalProperties: false, examples: [{ email: 'akela@example.org', show_email: false, leads_a_unit: true }] },
)

export async function accountView(db: Db, caller: Caller) {
  const person = await db.selectFrom('people').select(['email', 'show_email']).where('id', '=', caller.person!.id).executeTakeFirstOrThrow()
  return { email: person.email, show_email: person.show_email === 1, leads_a_unit: leadsAUnit(caller.person) }
}

/** Whether anything changed: the public unit pages then need a rebuild. */
export async function setShowEmail(db: Db, caller: Caller, show: boolean): Promise<boolean> {
  return write(db, async (trx) => {
    const changed = await trx
      .updateTable('people')
      .set({ show_email: show ? 1 : 0 })
      .where('id', '=', caller.person!.id)
      .where('show_email', '!=', show ? 1 : 0)
      .executeTakeFirst()
    if (!Number(changed.numUpdatedRows)) {
      unchanged(trx)
      return false
    }
    await record(trx, caller.actor, 'account.public_email', `${show ? 'Shows' : 'Hides'} their email on the public unit page`)
    return true
  })
}
