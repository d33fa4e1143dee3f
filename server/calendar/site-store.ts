// The calendar kept by the site itself, for a unit with no CalDAV server: the same one-VEVENT resources a collection
// would hold, in SQLite, with an ETag per resource so a stale edit is refused as a collection would refuse it.
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { conflict, notFound } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { fingerprint, type CalendarStore, type StoredObject } from './calendar-store.ts'

/** The address a site-kept event has in place of a collection URL. */
const URL_PREFIX = 'site:'

export class SiteStore implements CalendarStore {
  readonly kind = 'site'

  constructor(private db: Db) {}

  async snapshot() {
    const objects = await this.list()
    return { tag: fingerprint(objects), objects }
  }

  async currentTag() {
    return fingerprint(await this.list())
  }

  async list(db: Executor = this.db): Promise<StoredObject[]> {
    const rows = await db.selectFrom('calendar_site_events').select(['uid', 'ics', 'etag']).orderBy('uid').execute()
    return rows.map((r) => ({ ...r, url: this.urlFor(r.uid) }))
  }

  urlFor(uid: string) {
    return URL_PREFIX + uid
  }

  async create(uid: string, ics: string, db: Executor = this.db) {
    await db.insertInto('calendar_site_events').values({ uid, ics, etag: newEtag(), changed_at: nowIso() }).execute()
  }

  async update(url: string, etag: string | null, ics: string, db: Executor = this.db) {
    await this.matching(db, url, etag)
    await db
      .updateTable('calendar_site_events')
      .set({ ics, etag: newEtag(), changed_at: nowIso() })
      .where('uid', '=', url.slice(URL_PREFIX.length))
      .execute()
  }

  async remove(url: string, etag: string | null, db: Executor = this.db) {
    await this.matching(db, url, etag)
    await db.deleteFrom('calendar_site_events').where('uid', '=', url.slice(URL_PREFIX.length)).execute()
  }

  /** 404 when the event is gone, 409 when it changed since `etag` was read (no etag: any version). */
  private async matching(db: Executor, url: string, etag: string | null) {
    const row = await db
      .selectFrom('calendar_site_events')
      .select('etag')
      .where('uid', '=', url.slice(URL_PREFIX.length))
      .executeTakeFirst()
    if (!row) throw notFound('No such event (it may have been deleted)')
    if (etag !== null && row.etag !== etag) throw conflict('The event was changed meanwhile; reload and try again')
  }
}

const newEtag = () => `"${crypto.randomUUID()}"`
