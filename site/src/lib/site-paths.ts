// The pages whose paths come from the data: each unit's page and calendar, the published content pages, and the
// catalog's seasons and their pages. The site build renders these besides the pages of fixed paths (it asks for them
// at /site-paths.json, server/site/build.ts); each page finds its subject by the parameters of its path.
import { publishedPages } from '#server/pages/pages.ts'
import { catalogSeasons } from './catalog-pages.ts'
import { db, units } from './data.ts'

/** The units with a calendar of their own (events for both units show on each). */
export const CALENDAR_UNITS = ['pack', 'troop'] as const
export type CalendarUnitSlug = (typeof CALENDAR_UNITS)[number]
export const isCalendarUnit = (slug: string | undefined): slug is CalendarUnitSlug => CALENDAR_UNITS.includes(slug as CalendarUnitSlug)

/** The path of every page made from the data: a page's ends in `/`, a file's (a feed) does not. */
export async function dataPaths(): Promise<string[]> {
  return [
    ...(await units()).map((unit) => `/units/${unit.slug}/`),
    ...(await publishedPages(db)).map((page) => `/pages/${page.slug}/`),
    ...CALENDAR_UNITS.flatMap((unit) => [`/calendar/${unit}/`, `/calendar/${unit}/month/`, `/calendar/${unit}.ics`]),
    ...(await catalogSeasons()).flatMap((s) => [
      `/catalog/${s.season}/`,
      ...Array.from({ length: s.pages - 1 }, (_, i) => `/catalog/${s.season}/${i + 2}/`),
    ]),
  ]
}
