// GET /api/admin/summary: the counts a leader needs at a glance.
import { sql } from 'kysely'
import { announcementsWithState } from '../../../server/announcements/state.ts'
import { defineRoute } from '../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'leads:read',
  summary: 'Counts at a glance: new and unclaimed leads, leads claimed by me, failed mirror copies, live announcements',
  async handler({ db, caller }) {
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
    const live = (await announcementsWithState(db)).filter((a) => a.state === 'live').length
    return { leads, failed_mirror_copies: mirrors.n, live_announcements: live }
  },
})
