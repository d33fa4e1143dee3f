// An event deleted before it starts cancels its sign-ups: each household that said yes (confirmed or waiting) is told
// by mail and on its phones, and the trip fees charged for it are reversed, in the write that deletes the event.
import type { Executor } from '../db/database.ts'
import { reverseTripFeesOf } from '../money/trip-fees.ts'
import { queueSignupMail, type SignupMail } from './signup-mail.ts'

export async function cancelSignups(trx: Executor, actor: string, uid: string, mail: SignupMail): Promise<void> {
  const event = await trx
    .selectFrom('rsvp_events')
    .select(['uid', 'title', 'date', 'starts_at'])
    .where('uid', '=', uid)
    .where('gone_at', 'is', null)
    .executeTakeFirst()
  if (!event || Date.parse(event.starts_at) <= Date.now()) return
  await reverseTripFeesOf(trx, actor, event)
  const coming = await trx.selectFrom('rsvps').select('household_id').where('uid', '=', uid).where('answer', '=', 'yes').execute()
  await queueSignupMail(
    trx,
    mail,
    'cancelled',
    event,
    coming.map((r) => r.household_id),
  )
}
