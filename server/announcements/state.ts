// The one rule for an announcement's state: revoked > expired > scheduled > live or over_cap.
import type { Announcement } from './tables.ts'
import type { Executor } from '../db/database.ts'
import { getSetting } from '../settings/registry.ts'

export const STATES = ['live', 'scheduled', 'expired', 'revoked', 'over_cap'] as const
export type AnnouncementState = (typeof STATES)[number]
export type AnnouncementWithState = Announcement & { state: AnnouncementState }

/** Whether an announcement's window is open at `now`: not revoked, started, not ended. */
const isOpen = (a: Announcement, now: number) => !a.revoked_at && Date.parse(a.ends_at) > now && Date.parse(a.starts_at) <= now

/** The state of one announcement at `now`, given whether it is among the earliest-starting open ones that fill the cap. */
function stateOf(a: Announcement, now: number, live: (a: Announcement) => boolean): AnnouncementState {
  if (a.revoked_at) return 'revoked'
  if (Date.parse(a.ends_at) <= now) return 'expired'
  if (Date.parse(a.starts_at) > now) return 'scheduled'
  return live(a) ? 'live' : 'over_cap'
}

/**
 * Every announcement with its state at `now`. Among those whose window is open, the earliest-starting
 * ones fill the live cap; the rest are over_cap (and not shown publicly).
 */
export function withStates(rows: Announcement[], liveCap: number, now = Date.now()): AnnouncementWithState[] {
  const open = rows.filter((a) => isOpen(a, now)).sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id - b.id)
  const live = new Set(open.slice(0, liveCap).map((a) => a.id))
  return rows.map((a) => ({ ...a, state: stateOf(a, now, (x) => live.has(x.id)) }))
}

/** Every announcement with its state, newest first: for the list and the site, which show them all. */
export async function announcementsWithState(db: Executor, now = Date.now()) {
  const rows = await db.selectFrom('announcements').selectAll().orderBy('id', 'desc').execute()
  return withStates(rows, await getSetting(db, 'announcements.live_cap'), now)
}

/**
 * The open announcements (not revoked, started, not ended) in the order that fills the live cap, at most `limit`:
 * a read bounded by the cap, not by the table (timestamps are stored as ISO text in UTC, so text order is time order).
 */
function openAnnouncements(db: Executor, now: number, limit: number) {
  const iso = new Date(now).toISOString()
  return db
    .selectFrom('announcements')
    .selectAll()
    .where('revoked_at', 'is', null)
    .where('ends_at', '>', iso)
    .where('starts_at', '<=', iso)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(limit)
    .execute()
}

/**
 * A page of the list, newest first: at most `limit + 1` announcements older than `beforeId` (the caller pages them),
 * each with its state; the open ones that fill the cap are read apart, so a page reads no more than its rows.
 */
export async function announcementsPage(db: Executor, beforeId: number | null, limit: number, now = Date.now()) {
  const rows = await db
    .selectFrom('announcements')
    .selectAll()
    .$if(beforeId !== null, (q) => q.where('id', '<', beforeId!))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  const live = new Set((await openAnnouncements(db, now, await getSetting(db, 'announcements.live_cap'))).map((a) => a.id))
  return rows.map((a): AnnouncementWithState => ({ ...a, state: stateOf(a, now, (x) => live.has(x.id)) }))
}

/** The announcements live at `now`, newest first, as the full list would show them. */
export async function liveAnnouncements(db: Executor, now = Date.now()): Promise<AnnouncementWithState[]> {
  const live = await openAnnouncements(db, now, await getSetting(db, 'announcements.live_cap'))
  return live.sort((a, b) => b.id - a.id).map((a) => ({ ...a, state: 'live' as const }))
}

/** One announcement with its state at `now`, reading the row and, when its window is open, the cap's fill; or undefined. */
export async function announcementWithState(db: Executor, id: number, now = Date.now()): Promise<AnnouncementWithState | undefined> {
  const row = await db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) return undefined
  const live = new Set<number>()
  if (isOpen(row, now)) for (const a of await openAnnouncements(db, now, await getSetting(db, 'announcements.live_cap'))) live.add(a.id)
  return { ...row, state: stateOf(row, now, (a) => live.has(a.id)) }
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
