// GET /calendar.ics: the subscribable iCalendar feed, built with the site from the same copy of the store.
import { calendarFeed } from '../lib/data.ts'

export async function GET() {
  return new Response(await calendarFeed(), { headers: { 'content-type': 'text/calendar; charset=utf-8' } })
}
