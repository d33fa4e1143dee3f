// When a mail was handed to the relay (just before the final dot of DATA) with no answer recorded yet, and how many
// earlier attempts of a sent mail may have been accepted too: a restart tells a mail that may have gone from one
// that cannot have, and /healthz counts the possible repeats (the partial index keeps that count bounded). And the
// action log by actor in id order, as history lists it now (one person's page would otherwise sort all their entries).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table mail_outbox add column handed_at text`.execute(db)
  await sql`alter table mail_outbox add column maybe_sent integer not null default 0`.execute(db)
  await sql`create index mail_outbox_repeats on mail_outbox (sent_at) where maybe_sent > 0`.execute(db)
  await sql`create index action_log_actor_id on action_log (actor, id)`.execute(db)
}
