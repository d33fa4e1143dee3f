// The bounded reads of an announcement's state (one row, the live ones) agree with the rule applied to the whole table.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { announcementsWithState, announcementWithState, liveAnnouncements } from '../../server/announcements/state.ts'
import { openMigrated } from '../../server/backups/migrate.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'announcement-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('announcement state', () => {
  it('gives each row, and the live ones, the state the whole table gives them', async () => {
    const db = await openMigrated(path.join(dir, 'site.db'))
    try {
      const now = Date.now()
      const hour = 3_600_000
      // Open windows with ties in starts_at (so the id decides), ended, later, and revoked ones: more open than the cap.
      const at = (h: number) => new Date(now + h * hour).toISOString()
      const windows = [
        [-5, 5],
        [-5, 1],
        [-9, -1],
        [2, 9],
        [-3, 4],
        [-5, 7],
        [-1, 3],
        [-7, 2],
        [-2, 6],
      ]
      await db
        .insertInto('announcements')
        .values(
          windows.map(([start, end], i) => ({
            message: `A${i}`,
            starts_at: at(start),
            ends_at: at(end),
            created_at: at(-10),
            created_by: 'test',
            revoked_at: i === 5 ? at(-1) : null,
            unit: 'both' as const,
          })),
        )
        .execute()
      const all = await announcementsWithState(db, now)
      expect(new Set(all.map((a) => a.state))).toEqual(new Set(['live', 'over_cap', 'expired', 'scheduled', 'revoked']))
      for (const a of all) expect(await announcementWithState(db, a.id, now)).toEqual(a)
      expect(await announcementWithState(db, 999, now)).toBeUndefined()
      expect(await liveAnnouncements(db, now)).toEqual(all.filter((a) => a.state === 'live'))
    } finally {
      await db.destroy()
    }
  })
})
