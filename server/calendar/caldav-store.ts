// A CalDAV collection as the calendar store, through tsdav: list, create, update and delete one-VEVENT resources,
// with timeouts and ETags. The calls it answers are in calendar-store.ts.
import type { Env } from '../env.ts'
import { conflict } from '../errors.ts'
import { fingerprint, StoreFailed, type CalendarStore, type StoredObject } from './calendar-store.ts'
import { uidOf } from './event.ts'

/** tsdav is loaded when a CalDAV store is first used: most units keep their calendar in the site itself. */
const caldav = () => import('tsdav')

const TIMEOUT_MS = 8000

const badGateway = (what: string, error: unknown) =>
  new StoreFailed(`The calendar store ${what}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`, false)

/** HTTP Basic credentials, UTF-8 encoded (RFC 7617), so a password with “ä” or “€” works. */
export const basicAuth = ({ username, password }: { username: string; password: string }) =>
  'Basic ' + Buffer.from(`${username}:${password}`, 'utf8').toString('base64')

export class CalDavStore implements CalendarStore {
  readonly kind = 'caldav'
  private headers: Record<string, string>
  private collection: { url: string }

  constructor(config: NonNullable<Env['caldav']>) {
    this.collection = { url: config.url.endsWith('/') ? config.url : config.url + '/' }
    this.headers = { authorization: basicAuth(config) }
  }

  private options = () => ({ headers: this.headers, fetchOptions: { signal: AbortSignal.timeout(TIMEOUT_MS) } })

  /**
   * The collection's change tag: CalendarServer's `getctag`, else the WebDAV `sync-token`, in one small
   * PROPFIND. Null when the store offers neither (then only a full read tells whether anything changed).
   */
  async changeTag(): Promise<string | null> {
    let answers
    try {
      answers = await (
        await caldav()
      ).propfind({ url: this.collection.url, props: { 'cs:getctag': {}, 'd:sync-token': {} }, depth: '0', ...this.options() })
    } catch (error) {
      throw badGateway('could not be reached', error)
    }
    const own = answers.find((a) => a.ok)
    if (!own)
      throw new StoreFailed(`The calendar store refused to describe the collection (HTTP ${answers[0]?.status ?? 'no answer'})`, true)
    const tag = own.props?.getctag ?? own.props?.syncToken
    return tag == null || tag === '' ? null : String(tag)
  }

  /**
   * Every resource in the collection, with a tag that changes whenever they do (the change tag read
   * first, so a change made meanwhile shows as a new tag next time). 502 when the store refuses or cannot be reached.
   */
  async snapshot(): Promise<{ tag: string; objects: StoredObject[] }> {
    const changeTag = await this.changeTag()
    const objects = await this.list()
    return { tag: changeTag ?? fingerprint(objects), objects }
  }

  /** The tag `snapshot` would give now, as cheaply as the store allows. */
  async currentTag(): Promise<string> {
    return (await this.changeTag()) ?? fingerprint(await this.list())
  }

  /** Every resource in the collection. 502 when the store refuses or cannot be reached. */
  async list(): Promise<StoredObject[]> {
    let objects
    try {
      objects = await (await caldav()).fetchCalendarObjects({ calendar: this.collection as never, ...this.options() })
    } catch (error) {
      throw badGateway('could not be read', error)
    }
    return objects
      .map((o) => ({ uid: uidOf(o.data ?? '') ?? '', url: decodeURI(o.url), etag: o.etag ?? null, ics: o.data ?? '' }))
      .filter((o) => o.uid)
  }

  urlFor(uid: string): string {
    return `${this.collection.url}${encodeURIComponent(uid)}.ics`
  }

  async create(uid: string, ics: string): Promise<void> {
    const res = await this.write('create', async () =>
      (await caldav()).createCalendarObject({
        calendar: this.collection as never,
        filename: `${encodeURIComponent(uid)}.ics`,
        iCalString: ics,
        ...this.options(),
      }),
    )
    await res.body?.cancel()
  }

  /** Replaces a resource only if it still has `etag` (412 from the store becomes 409). */
  async update(url: string, etag: string | null, ics: string): Promise<void> {
    const res = await this.write('update', async () =>
      (await caldav()).updateCalendarObject({ calendarObject: { url, etag: etag ?? undefined, data: ics }, ...this.options() }),
    )
    await res.body?.cancel()
  }

  async remove(url: string, etag: string | null): Promise<void> {
    const res = await this.write('delete', async () =>
      (await caldav()).deleteCalendarObject({ calendarObject: { url, etag: etag ?? undefined }, ...this.options() }),
    )
    await res.body?.cancel()
  }

  private async write(what: string, send: () => Promise<Response>): Promise<Response> {
    let res: Response
    try {
      res = await send()
    } catch (error) {
      throw badGateway(`could not be reached for the ${what}`, error)
    }
    if (res.status === 412) throw conflict('The event was changed in another calendar app meanwhile; reload and try again')
    if (!res.ok) throw new StoreFailed(`The calendar store refused the ${what} (HTTP ${res.status})`, true)
    return res
  }
}
