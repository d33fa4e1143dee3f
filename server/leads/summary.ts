// The counts a leader needs at a glance on the dashboard, and the areas they use (their cards' order).
import { sql } from 'kysely'
import { liveAnnouncements } from '../announcements/state.ts'
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { t } from '../schemas.ts'
import { AreaUse, areasUsed } from '../setup/usage.ts'

export const Summary = t.Object(
  {
    leads: t.Object(
      {
        total: t.Integer(),
        unclaimed: t.Integer(),
        new_this_week: t.Integer({ description: 'Sent in the last seven days' }),
        claimed_by_me: t.Integer(),
      },
      { additionalProperties: false },
    ),
    failed_mirror_copies: t.Integer({ description: 'Copies to outside targets that failed or are still owed' }),
    live_announcements: t.Integer(),
    your_use: AreaUse,
  },
  {
    additionalProperties: false,
    examples: [
      {
        leads: { total: 48, unclaimed: 3, new_this_week: 5, claimed_by_me: 2 },
        failed_mirror_copies: 0,
        live_announcements: 1,
        your_use: [{ href: '/admin/leads/', count: 6 }],
      },
    ],
  },
)

export async function summary(db: Executor, caller: Caller) {
  const week = new Date(Date.now() - 7 * 86_400_000).toISOString()
  const leads = await db
    .selectFrom('leads')
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`coalesce(sum(claimed_by is null), 0)`.as('unclaimed'),
      sql<number>`coalesce(sum(created_at >= ${week}), 0)`.as('new_this_week'),
      sql<number>`coalesce(sum(claimed_by = ${caller.person?.id ?? -1}), 0)`.as('claimed_by_me'),
    ])
    .executeTakeFirstOrThrow()
  const mirrors = await db
    .selectFrom('mirror_copies')
    .select(sql<number>`count(*)`.as('n'))
    .where('status', '!=', 'ok')
    .executeTakeFirstOrThrow()
  const live = (await liveAnnouncements(db)).length
  return { leads, failed_mirror_copies: mirrors.n, live_announcements: live, your_use: await areasUsed(db, caller) }
}
