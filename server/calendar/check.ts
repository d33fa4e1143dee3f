// `caldav-check`: is the configured collection reachable, are the credentials accepted, is it a calendar, can it take an event? One plain line.
import type { Env } from '../env.ts'
import { toICalendar } from './event.ts'
import { basicAuth } from './caldav-store.ts'

/** tsdav is loaded when a CalDAV store is first used: most units keep their calendar in the site itself. */
const caldav = () => import('tsdav')

const TIMEOUT_MS = 8000
const EXAMPLE_URL = 'https://cloud.example.org/remote.php/dav/calendars/USER/CALENDAR/'
const PROPS = { 'd:resourcetype': {}, 'd:displayname': {}, 'c:supported-calendar-component-set': {} }

export interface CheckResult {
  ok: boolean
  line: string
}

type Props = { resourcetype?: Record<string, unknown>; displayname?: unknown; supportedCalendarComponentSet?: { comp?: unknown } }
type Options = () => { headers: Record<string, string>; fetchOptions: RequestInit }

/** Runs the checks in order and stops at the first problem; a test event it wrote is always deleted again. */
export async function checkCalendarStore(config: NonNullable<Env['caldav']>): Promise<CheckResult> {
  let outcome: CheckResult
  try {
    outcome = await check(config)
  } catch (error) {
    outcome = problem(`The calendar check stopped: ${reason(error)}`)
  }
  // One line, and never the password, not even inside a server's or the runtime's error text.
  const line = outcome.line.replace(/\s+/g, ' ').trim()
  return { ok: outcome.ok, line: config.password.length >= 4 ? line.replaceAll(config.password, '***') : line }
}

const problem = (line: string): CheckResult => ({ ok: false, line })

async function check(config: NonNullable<Env['caldav']>): Promise<CheckResult> {
  let url: URL
  try {
    url = new URL(config.url.endsWith('/') ? config.url : config.url + '/')
  } catch {
    return problem(`CALDAV_URL is not a web address; use the calendar's own URL, e.g. ${EXAMPLE_URL}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return problem(`CALDAV_URL must start with https://, e.g. ${EXAMPLE_URL}`)
  const shown = `${url.origin}${url.pathname}` // without a user:password@ written into the URL
  const authorization = basicAuth(config)
  const options: Options = () => ({
    headers: { authorization },
    fetchOptions: { signal: AbortSignal.timeout(TIMEOUT_MS) },
  })

  let here
  try {
    here = (await (await caldav()).propfind({ url: url.href, props: PROPS, depth: '0', ...options() }))[0]
  } catch (error) {
    return problem(`Cannot reach ${url.host}: ${reason(error)}`)
  }
  if (here?.status === 401) return problem('The calendar server refused the user name or password (CALDAV_USERNAME/CALDAV_PASSWORD)')
  if (here?.status === 403)
    return problem(`The calendar server refused the user name or password for ${shown} (HTTP 403); check CALDAV_USERNAME/CALDAV_PASSWORD`)
  if (here?.status === 404) return problem(`CALDAV_URL was not found on the calendar server (HTTP 404): ${shown}`)
  if (here?.status !== 207) return problem(`CALDAV_URL does not answer as a CalDAV calendar (HTTP ${here?.status}): ${shown}`)
  const props = (here.props ?? {}) as Props
  if (!isCalendar(props))
    return problem(
      `CALDAV_URL points at a folder, not a calendar; use the calendar's own URL, e.g. ${(await calendarInside(url, options)) ?? EXAMPLE_URL}`,
    )
  if (!holdsEvents(props)) return problem(`CALDAV_URL points at a task list, not a calendar for events: ${shown}`)

  const failed = await writeAndDelete(url, options)
  if (failed) return problem(failed)
  const name = typeof props.displayname === 'string' && props.displayname ? ` (${props.displayname})` : ''
  return { ok: true, line: `Calendar OK: ${shown}${name} accepts events` }
}

/** The first events calendar directly inside a folder (a calendar home), to suggest its URL; undefined when none. */
async function calendarInside(folder: URL, options: Options): Promise<string | undefined> {
  try {
    const below = await (await caldav()).propfind({ url: folder.href, props: PROPS, depth: '1', ...options() })
    const found = below.find((r) => r.href && new URL(r.href, folder).href !== folder.href && isCalendar(r.props) && holdsEvents(r.props))
    return found ? new URL(found.href!, folder).href : undefined
  } catch {
    return undefined // only a suggestion: the example URL still says what to do
  }
}

/** Saves a test event and deletes it again; answers what went wrong, or null when both worked. */
async function writeAndDelete(collection: URL, options: Options): Promise<string | null> {
  const uid = `site-caldav-check-${crypto.randomUUID()}`
  const ics = toICalendar(
    uid,
    { title: 'Calendar check (safe to delete)', date: new Date().toISOString().slice(0, 10), unit: 'both' },
    'UTC',
  )
  let saved: Response | undefined
  let removed: Response | Error | undefined
  try {
    saved = await (
      await caldav()
    ).createCalendarObject({
      calendar: { url: collection.href } as never,
      filename: `${uid}.ics`,
      iCalString: ics,
      ...options(),
    })
    await saved.body?.cancel()
  } catch (error) {
    return `Cannot reach ${collection.host}: ${reason(error)}`
  } finally {
    // Also when the answer was lost: the server may have stored the event anyway.
    if (!saved || saved.ok) {
      const object = { url: new URL(`${uid}.ics`, collection).href }
      removed = await (await caldav()).deleteCalendarObject({ calendarObject: object, ...options() }).catch((error: Error) => error)
      if (removed instanceof Response) await removed.body?.cancel()
    }
  }
  if (!saved.ok)
    return `The calendar server refused to save a test event (HTTP ${saved.status}); CALDAV_USERNAME needs write access to this calendar`
  if (removed instanceof Error)
    return `A test event was saved but could not be deleted (${reason(removed)}); delete "Calendar check" by hand`
  if (!removed?.ok)
    return `A test event was saved but the server refused to delete it (HTTP ${removed?.status}); delete "Calendar check" by hand`
  return null
}

const isCalendar = (props: Props | undefined) => Boolean(props?.resourcetype && 'calendar' in props.resourcetype)

/** True unless the calendar announces components without VEVENT (a task list, say). */
function holdsEvents(props: Props | undefined): boolean {
  const comps = props?.supportedCalendarComponentSet?.comp
  if (!comps) return true
  return [comps].flat().some((c) => String((c as { _attributes?: { name?: string } })?._attributes?.name).toUpperCase() === 'VEVENT')
}

/** A connection failure in a volunteer's words. */
function reason(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string } | undefined
  if (e?.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} seconds`
  if (e?.code === 'ECONNREFUSED') return 'the connection was refused (is the calendar server running, and is the port in CALDAV_URL right?)'
  if (e?.code === 'ENOTFOUND') return 'that host name is not known (check CALDAV_URL)'
  return (e?.message ?? String(error)).slice(0, 200)
}
