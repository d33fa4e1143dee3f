// Indexes that keep the nightly pruning and /healthz's mail check bounded as the outbox grows: the newest sent mail,
// the newest failed attempt, and the sent mail whose text is due to go.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index mail_outbox_sent_at on mail_outbox (sent_at)`.execute(db)
  await sql`create index mail_outbox_failed_at on mail_outbox (last_attempt_at) where error is not null`.execute(db)
  await sql`create index sessions_expires on sessions (expires_at)`.execute(db)
  await sql`create index join_spam_at on join_spam (at)`.execute(db)
}
