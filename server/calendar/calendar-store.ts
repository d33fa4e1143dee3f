// What the calendar service asks of wherever events are kept: a CalDAV collection (caldav-store.ts) or, with none
// configured, the site itself (site-store.ts). Both answer the same calls; store.ts picks one.
import type { Executor } from '../db/database.ts'
import { HttpError } from '../errors.ts'

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
