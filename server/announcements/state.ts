// The one rule for an announcement's state: revoked > expired > scheduled > live or over_cap.
import type { Announcement } from './tables.ts'
import type { Executor } from '../db/database.ts'
import { getSetting } from '../settings/registry.ts'

export const STATES = ['live', 'scheduled', 'expired', 'revoked', 'over_cap'] as const
export type AnnouncementState = (typeof STATES)[number]

/**
 * Every announcement with its state at `now`. Among those whose window is open, the earliest-starting
 * ones fill the live cap; the rest are over_cap (and not shown publicly).
 */
export function withStates(rows: Announcement[], liveCap: number, now = Date.now()): (Announcement & { state: AnnouncementState })[] {
  const open = rows
    .filter((a) => !a.revoked_at && Date.parse(a.ends_at) > now && Date.parse(a.starts_at) <= now)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id - b.id)
  const live = new Set(open.slice(0, liveCap).map((a) => a.id))
  return rows.map((a) => ({
    ...a,
    state: a.revoked_at
      ? 'revoked'
      : Date.parse(a.ends_at) <= now
        ? 'expired'
        : Date.parse(a.starts_at) > now
          ? 'scheduled'
          : live.has(a.id)
            ? 'live'
            : 'over_cap',
  }))
}

export async function announcementsWithState(db: Executor, now = Date.now()) {
  const rows = await db.selectFrom('announcements').selectAll().orderBy('id', 'desc').execute()
  return withStates(rows, await getSetting(db, 'announcements.live_cap'), now)
}

/** The next moment a state changes (a start or an end still ahead), so the site can rebuild then. */
export async function nextAnnouncementChange(db: Executor, now = Date.now()): Promise<number | null> {
  const iso = new Date(now).toISOString()
  const rows = await db
    .selectFrom('announcements')
    .select(['starts_at', 'ends_at'])
    .where('revoked_at', 'is', null)
    .where('ends_at', '>', iso)
    .execute()
  const times = rows.flatMap((r) => [Date.parse(r.starts_at), Date.parse(r.ends_at)]).filter((t) => t > now)
  return times.length ? Math.min(...times) : null
}
