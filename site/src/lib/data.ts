// Build-time data: the pages read the same SQLite database through the server's Kysely module.
import { openDatabase } from '../../../server/db/client.ts'
import { readEnv } from '../../../server/env.ts'

const env = readEnv()
// The server migrates before it builds; the build only reads.
export const db = openDatabase(env.databasePath)

export const SITE_TITLE = 'Pack & Troop'

export const units = () => db.selectFrom('units').selectAll().orderBy('id').execute()

const DAYS: Record<string, string> = {
  monday: 'Mondays',
  tuesday: 'Tuesdays',
  wednesday: 'Wednesdays',
  thursday: 'Thursdays',
  friday: 'Fridays',
  saturday: 'Saturdays',
  sunday: 'Sundays',
}

/** "Tuesdays at 6:30 PM, Community hall" or null when nothing is set. */
export function meetingLine(u: { meeting_day: string | null; meeting_time: string | null; meeting_place: string | null }): string | null {
  const parts = []
  if (u.meeting_day) parts.push(DAYS[u.meeting_day] ?? u.meeting_day)
  if (u.meeting_time) {
    const [h, m] = u.meeting_time.split(':').map(Number)
    parts.push(`at ${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`)
  }
  const when = parts.join(' ')
  return [when, u.meeting_place].filter(Boolean).join(', ') || null
}
