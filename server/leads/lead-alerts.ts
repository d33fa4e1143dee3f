// New-lead alerts: when the join form brings a family, each leader of the unit they asked about (both units when
// they are not sure) who has not turned it off gets a short mail pointing to the leads page, at most one in ten
// minutes. The mail names nobody: the family's details stay on the site, behind a sign-in.
import type { Executor } from '../db/database.ts'
import type { Lead } from './tables.ts'
import { compose } from '../mail/compose.ts'
import { mailedSince, queueMail } from '../mail/outbox.ts'
import { pushedSince } from '../push/queue.ts'
import { getSetting } from '../settings/registry.ts'

const ALERT_GAP_MS = 10 * 60_000

/** Queues the alerts for a new lead, inside the write that stores it; the number queued. */
export async function queueLeadAlerts(trx: Executor, lead: Pick<Lead, 'unit'>, publicBaseUrl: string): Promise<number> {
  const slugs = lead.unit === 'unsure' ? ['pack', 'troop'] : [lead.unit]
  const leaders = await trx
    .selectFrom('memberships')
    .innerJoin('people', 'people.id', 'memberships.person_id')
    .innerJoin('units', 'units.id', 'memberships.unit_id')
    .select('people.email')
    .distinct()
    .where('memberships.role', '=', 'leader')
    .where('units.slug', 'in', slugs as ('pack' | 'troop')[])
    .where('people.disabled_at', 'is', null)
    .where('people.lead_alerts', '=', 1)
    .execute()
  // One alert a leader in any ten minutes, so a flood of forms cannot fill their inboxes or the relay's quota.
  const since = new Date(Date.now() - ALERT_GAP_MS).toISOString()
  const alerted = await mailedSince(
    trx,
    leaders.map((l) => l.email),
    ['lead_alert'],
    since,
  )
  // A leader who chose notifications alone has no mail to count: their pushes count instead.
  const pushed = await pushedSince(
    trx,
    leaders.map((l) => l.email),
    'lead_alert',
    since,
  )
  const due = leaders.filter((l) => !alerted.has(l.email) && !pushed.has(l.email))
  if (!due.length) return 0
  const site = await getSetting(trx, 'site.name')
  const about = lead.unit === 'unsure' ? 'is not sure which unit suits them' : `asked about the ${lead.unit}`
  const letter = await compose(trx, {
    subject: `A new family sent the join form`,
    paragraphs: [
      `A family sent the join form on ${site} and ${about}. Claim the lead so they hear from one of you soon.`,
      'More families who write in the next ten minutes are on the same page, without another mail.',
    ],
    link: { label: 'See the new lead', url: `${publicBaseUrl}/admin/leads/` },
    why: `You get this mail because you lead a unit on ${site}. Turn these mails off on your account page: ${publicBaseUrl}/admin/account/`,
  })
  await queueMail(
    trx,
    due.map((l) => ({
      kind: 'lead_alert' as const,
      to: l.email,
      ...letter,
      push: {
        kind: 'lead_alert' as const,
        title: 'A new family sent the join form',
        body: `A family ${about}.`,
        url: `${publicBaseUrl}/admin/leads/`,
      },
    })),
  )
  return due.length
}
