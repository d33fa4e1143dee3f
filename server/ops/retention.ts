// What the service keeps, and for how long: run nightly before the backup, so the database (and every backup of
// it) stops growing with what nobody reads again. docs/operating.md, "What is kept, and for how long", lists the same.
import { sql } from 'kysely'
import type { Db } from '../db/client.ts'
import { getSetting } from '../settings/registry.ts'
import { logEvent } from './log.ts'

const DAY = 86_400_000
/** Links and tickets stay this long after they were used, revoked or expired: long enough to answer 410, not 404. */
const SPENT_LINKS_DAYS = 30
/** Site-build records older than this go (the newest is always kept: the health check reads it). */
const BUILD_RECORDS_DAYS = 30
/** Outbox rows (by id) looked at per transaction. */
const MAIL_BATCH = 500
/** Roster import previews live an hour; a day past that (410 meanwhile) they go, with the names they hold. */
const IMPORT_PREVIEW_DAYS = 1
/** Join-form posts refused as spam. */
const SPAM_DAYS = 365

/** Removes what is past keeping; returns how many rows each rule touched. */
export async function pruneExpired(db: Db, now = Date.now()): Promise<Record<string, number>> {
  const iso = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString()
  const mailCutoff = iso(await getSetting(db, 'mail.keep_days'))
  const spent = iso(SPENT_LINKS_DAYS)
  const changed = (result: { numChangedRows?: bigint; numUpdatedRows?: bigint; numDeletedRows?: bigint }[]) =>
    Number(result[0]?.numChangedRows ?? result[0]?.numUpdatedRows ?? result[0]?.numDeletedRows ?? 0)
  // Not write(): this is the service's own bookkeeping, not an action anyone took; the log line says what went.
  // Mail texts go in small batches, each its own short transaction, so the first night after an upgrade (years of
  // mail) never holds other writers for more than a moment.
  let mailTexts = 0
  const last = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
  for (let from = 0; from < (last?.id ?? 0); from += MAIL_BATCH) {
    const result = await db
      .updateTable('mail_outbox')
      .set({ text_body: '', html_body: '' })
      .where('id', '>', from)
      .where('id', '<=', from + MAIL_BATCH)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'sent'), eb('sent_at', '<', mailCutoff)]),
          eb.and([eb('state', '=', 'failed'), eb('created_at', '<', mailCutoff)]),
        ]),
      )
      .where((eb) => eb.or([eb('text_body', '!=', ''), eb('html_body', '!=', '')]))
      .executeTakeFirst()
    mailTexts += Number(result.numUpdatedRows)
    await Bun.sleep(0) // let waiting requests in between batches
  }
  const counts = await db.transaction().execute(async (trx) => ({
    mail_texts: mailTexts,
    sessions: changed(await trx.deleteFrom('sessions').where('expires_at', '<', new Date(now).toISOString()).execute()),
    invites: changed(
      await trx
        .deleteFrom('invites')
        .where((eb) => eb.or([eb('used_at', '<', spent), eb('revoked_at', '<', spent), eb('expires_at', '<', spent)]))
        .execute(),
    ),
    reset_links: changed(
      await trx
        .deleteFrom('reset_links')
        .where((eb) => eb.or([eb('used_at', '<', spent), eb('revoked_at', '<', spent), eb('expires_at', '<', spent)]))
        .execute(),
    ),
    login_links: changed(
      await trx
        .deleteFrom('login_links')
        .where((eb) => eb.or([eb('used_at', '<', spent), eb('revoked_at', '<', spent), eb('expires_at', '<', spent)]))
        .execute(),
    ),
    setup_tokens: changed(await trx.deleteFrom('setup_tokens').where('used_at', '<', spent).execute()),
    login_tickets: changed(await trx.deleteFrom('login_tickets').where('expires_at', '<', spent).execute()),
    passkey_challenges: changed(await trx.deleteFrom('passkey_challenges').where('expires_at', '<', spent).execute()),
    site_builds: changed(
      await trx
        .deleteFrom('site_builds')
        .where('finished_at', '<', iso(BUILD_RECORDS_DAYS))
        .where('id', '<', sql<number>`(select max(id) from site_builds)`)
        .execute(),
    ),
    roster_imports: changed(await trx.deleteFrom('roster_imports').where('expires_at', '<', iso(IMPORT_PREVIEW_DAYS)).execute()),
    join_spam: changed(await trx.deleteFrom('join_spam').where('at', '<', iso(SPAM_DAYS)).execute()),
  }))
  const removed = Object.entries(counts).filter(([, n]) => n > 0)
  if (removed.length)
    logEvent('db.prune', { ...counts, message: `Pruned what is past keeping: ${removed.map(([what, n]) => `${n} ${what}`).join(', ')}` })
  return counts
}
