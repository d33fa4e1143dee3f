// Where events are kept: a CalDAV collection through tsdav (list, create, update and delete one-VEVENT resources,
// with timeouts and ETags), or, with none configured, the site itself (site-store.ts). Both answer the same calls.
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import type { Env } from '../env.ts'
import { conflict, HttpError } from '../errors.ts'
import { uidOf } from './event.ts'
import { SiteStore } from './site-store.ts'

/** tsdav is loaded when a CalDAV store is first used: most units keep their calendar in the site itself. */
const caldav = () => import('tsdav')

const TIMEOUT_MS = 8000

export interface StoredObject {
  uid: string
  url: string
  etag: string | null
  ics: string
}

/** 502: the CalDAV store did not answer (`reached` false) or refused; the admin calendar then shows its last copy. */
export class StoreFailed extends HttpError {
  constructor(
    detail: string,
    readonly reached: boolean,
  ) {
    super(502, detail)
  }
}

const badGateway = (what: string, error: unknown) =>
  new StoreFailed(`The calendar store ${what}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`, false)

/** HTTP Basic credentials, UTF-8 encoded (RFC 7617), so a password with “ä” or “€” works. */
export const basicAuth = ({ username, password }: { username: string; password: string }) =>
  'Basic ' + Buffer.from(`${username}:${password}`, 'utf8').toString('base64')

/** For a store without change tags: the resources and their ETags (or their text), in one string. */
export const fingerprint = (objects: StoredObject[]) =>
  'objects:' +
  Bun.hash(
    objects
      .map((o) => `${o.url} ${o.etag ?? o.ics}`)
      .sort()
      .join('\n'),
  ).toString(36)

/**
 * The calls the calendar service makes of a store. The site's own store takes the transaction a write runs in, so an
 * event and its action-log entry commit together; a CalDAV collection cannot share it and ignores it.
 */
export interface CalendarStore {
  readonly kind: 'site' | 'caldav'
  /** Every resource, with a tag that changes whenever they do. */
  snapshot(): Promise<{ tag: string; objects: StoredObject[] }>
  /** The tag `snapshot` would give now, as cheaply as the store allows. */
  currentTag(): Promise<string>
  list(): Promise<StoredObject[]>
  urlFor(uid: string): string
  create(uid: string, ics: string, trx?: Executor): Promise<void>
  /** Replaces a resource only if it still has `etag` (else 409). */
  update(url: string, etag: string | null, ics: string, trx?: Executor): Promise<void>
  remove(url: string, etag: string | null, trx?: Executor): Promise<void>
}

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

/** The collection the environment configures (CALDAV_URL, CALDAV_USERNAME, CALDAV_PASSWORD), else the site's own store. */
export const calendarStoreFor = (env: Readonly<Env>, db: Db): CalendarStore =>
  env.caldav ? new CalDavStore(env.caldav) : new SiteStore(db)
