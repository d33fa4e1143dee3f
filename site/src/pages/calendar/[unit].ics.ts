// GET /calendar/pack.ics and /calendar/troop.ics: a unit's feed, its own events and those for both units.
import { calendarFeed } from '../../lib/data.ts'

export function getStaticPaths() {
  return [{ params: { unit: 'pack' } }, { params: { unit: 'troop' } }]
}

export async function GET({ params }: { params: { unit: 'pack' | 'troop' } }) {
  return new Response(await calendarFeed(params.unit), { headers: { 'content-type': 'text/calendar; charset=utf-8' } })
}
