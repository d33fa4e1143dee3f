// A failing backup is found when it is needed unless someone hears of it: owners get a short mail, once a day at
// most, when mail is set up. The health check and the owner's dashboard say the same meanwhile.
import type { Db } from '../db/client.ts'
import { compose } from '../mail/compose.ts'
import { mailedSince, queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { getSetting } from '../settings/registry.ts'

const ONCE_IN_MS = 24 * 3_600_000

/** Queues the alert to every owner not mailed one in the last day; returns how many were queued. */
export async function alertOwnersOfFailedBackup(db: Db, mail: MailSender, error: string, baseUrl: string): Promise<number> {
  const owners = (
    await db.selectFrom('people').select('email').where('global_role', '=', 'owner').where('disabled_at', 'is', null).execute()
  ).map((o) => o.email)
  const told = await mailedSince(db, owners, ['alert'], new Date(Date.now() - ONCE_IN_MS).toISOString())
  const to = owners.filter((o) => !told.has(o))
  if (!to.length) return 0
  const site = await getSetting(db, 'site.name')
  const letter = await compose(db, {
    subject: `The backup of ${site} failed`,
    paragraphs: [
      `The daily backup of ${site} did not work: ${error}`,
      'Until it works again, a broken disk or a mistake could lose the families’ data. Check the free space and the backup folder on the machine that runs the site.',
    ],
    link: { label: 'See the backup history', url: `${baseUrl}/admin/history/?kind=backups.` },
    why: `You get this mail because you are an owner of ${site}. It comes at most once a day while the backups fail.`,
  })
  // Not write(): an alert about the service's own bookkeeping; the failure itself is in the action log already.
  await queueMail(
    db,
    to.map((address) => ({ kind: 'alert' as const, to: address, ...letter })),
  )
  mail.wake()
  return to.length
}
