// Which admin areas a person uses lately, counted from their own most recent history entries: the dashboard puts
// those cards first. Reading is not logged, so a changed thing is the honest signal of use.
import { sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Executor } from '../db/database.ts'
import { t } from '../schemas.ts'

/** The admin page of each history area (the kind's first word), as the admin menu links it. */
const PAGE_OF_AREA: Record<string, string> = {
  leads: '/admin/leads/',
  announcements: '/admin/announcements/',
  messages: '/admin/messages/',
  calendar: '/admin/calendar/',
  socialposts: '/admin/posts/',
  nearby: '/admin/nearby/',
  roster: '/admin/roster/',
  people: '/admin/people/',
  units: '/admin/units/',
  keys: '/admin/keys/',
  settings: '/admin/settings/',
  pages: '/admin/pages/',
}

export const AreaUse = t.Array(t.Object({ href: t.String(), count: t.Integer({ minimum: 1 }) }, { additionalProperties: false }), {
  description: 'The admin pages where you changed something lately (your last 1,000 changes within 90 days), most first',
})

/** How many of a person's newest entries "lately" counts at most, so a busy person's dashboard costs the same. */
const RECENT_ENTRIES = 1000

export async function areasUsed(db: Executor, caller: Caller) {
  const since = new Date(Date.now() - 90 * 86_400_000).toISOString()
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('action_log')
        .select('kind')
        .where('actor', '=', caller.actor)
        .where('at', '>=', since)
        .orderBy('at', 'desc')
        .limit(RECENT_ENTRIES)
        .as('recent'),
    )
    .select([sql<string>`substr(kind, 1, instr(kind, '.') - 1)`.as('area'), sql<number>`count(*)`.as('count')])
    .groupBy('area')
    .orderBy('count', 'desc')
    .execute()
  return rows.flatMap(({ area, count }) => (PAGE_OF_AREA[area] ? [{ href: PAGE_OF_AREA[area], count }] : []))
}
