// Where events are kept: the CalDAV collection the environment names, else the site itself.
import type { Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { CalDavStore } from './caldav-store.ts'
import type { CalendarStore } from './calendar-store.ts'
import { SiteStore } from './site-store.ts'

/** The collection the environment configures (CALDAV_URL, CALDAV_USERNAME, CALDAV_PASSWORD), else the site's own store. */
export const calendarStoreFor = (env: Readonly<Env>, db: Db): CalendarStore =>
  env.caldav ? new CalDavStore(env.caldav) : new SiteStore(db)
