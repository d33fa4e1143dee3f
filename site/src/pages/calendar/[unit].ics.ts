// GET /calendar/pack.ics and /calendar/troop.ics: a unit's feed, its own events and those for both units.
import { calendarFeed } from '../../lib/data.ts'
import { isCalendarUnit } from '../../lib/site-paths.ts'

export async function GET({ params }: { params: { unit?: string } }) {
  if (!isCalendarUnit(params.unit)) return new Response(null, { status: 404 })
  return new Response(await calendarFeed(params.unit), { headers: { 'content-type': 'text/calendar; charset=utf-8' } })
}
