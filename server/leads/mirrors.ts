// Copies leads to outside targets (the spreadsheet endpoint) after they are stored, never delaying them; the
// copies that failed, and replaying them.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { type Lead, MIRROR_STATUSES } from './tables.ts'
import { record } from '../db/write.ts'
import { unprocessable } from '../errors.ts'
import type { Outbound } from '../http/outbound.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { Instant, Nullable, nowIso, OneOf, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'

export const MIRROR_TIMEOUT_MS = 5000

/** The targets a new lead is copied to, as configured now. */
export async function configuredTargets(db: Executor): Promise<'spreadsheet'[]> {
  return (await getSetting(db, 'mirrors.spreadsheet_url')) ? ['spreadsheet'] : []
}

/**
 * POSTs the lead to the spreadsheet endpoint and stores the outcome; never throws. Leaders read the outcome in
 * plain words (never another server's status or an address); the service log keeps what happened.
 */
export async function copyToSpreadsheet(db: Db, outbound: Outbound, lead: Lead): Promise<boolean> {
  const url = await getSetting(db, 'mirrors.spreadsheet_url')
  let error: string | null = null
  let detail: string | null = null
  if (!url) error = detail = 'mirrors.spreadsheet_url is not set'
  else {
    try {
      const res = await outbound.fetch(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(publicLead(lead)) },
        MIRROR_TIMEOUT_MS,
      )
      await res.body?.cancel()
      if (!res.ok) {
        error = 'The spreadsheet did not accept the copy'
        detail = `HTTP ${res.status} from the spreadsheet endpoint${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}`
      }
    } catch (e) {
      error = 'The spreadsheet could not be reached'
      detail = e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${MIRROR_TIMEOUT_MS / 1000} s` : errorText(e)
    }
  }
  await db
    .updateTable('mirror_copies')
    .set((eb) => ({ status: error ? 'failed' : 'ok', error, last_attempt_at: nowIso(), attempts: eb('attempts', '+', 1) }))
    .where('lead_id', '=', lead.id)
    .where('target', '=', 'spreadsheet')
    .execute()
  logEvent('mirror.copy', {
    ok: !error,
    lead_id: lead.id,
    target: 'spreadsheet',
    message: error ? `Copying lead ${lead.id} to the spreadsheet failed: ${detail}` : `Copied lead ${lead.id} to the spreadsheet`,
  })
  return !error
}

/** The fields a lead is copied with: what the family sent, and when. */
export const publicLead = (l: Lead) => ({
  id: l.id,
  created_at: l.created_at,
  parent_name: l.parent_name,
  email: l.email,
  phone: l.phone,
  scout_name: l.scout_name,
  scout_grade: l.scout_grade,
  unit: l.unit,
  message: l.message,
})

/** Copies a freshly stored lead to each target that has a pending copy row. */
export async function mirrorNewLead(db: Db, outbound: Outbound, leadId: number): Promise<void> {
  const lead = await db.selectFrom('leads').selectAll().where('id', '=', leadId).executeTakeFirst()
  const pending = await db
    .selectFrom('mirror_copies')
    .select('target')
    .where('lead_id', '=', leadId)
    .where('status', '=', 'pending')
    .execute()
  if (lead && pending.some((p) => p.target === 'spreadsheet')) await copyToSpreadsheet(db, outbound, lead)
}

/**
 * Copies new leads in the background a few at a time, so a slow or hanging target never piles up
 * connections or slows the join form. Copies still waiting when the service stops stay `pending`
 * in the database, where the failed list and the retry find them.
 */
export class MirrorQueue {
  private waiting: number[] = []
  private active = 0

  constructor(
    private db: Db,
    private outbound: Outbound,
    private concurrency = 2,
    private maxWaiting = 10_000,
  ) {}

  add(leadId: number): void {
    if (this.waiting.length < this.maxWaiting) this.waiting.push(leadId)
    this.pump()
  }

  private pump(): void {
    while (this.active < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!
      this.active++
      mirrorNewLead(this.db, this.outbound, id)
        .catch((e) => console.error('mirror copy failed', e))
        .finally(() => {
          this.active--
          this.pump()
        })
    }
  }
}

export const FailedCopies = t.Object(
  {
    failed: t.Array(
      t.Object(
        {
          lead_id: t.Integer(),
          parent_name: t.String(),
          created_at: Instant,
          target: t.Literal('spreadsheet'),
          status: OneOf(MIRROR_STATUSES, { description: 'failed, or pending when a copy was owed at a restart' }),
          attempts: t.Integer(),
          last_attempt_at: Nullable(Instant),
          error: Nullable(t.String()),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest lead first' },
    ),
    configured: t.Boolean({ description: 'Whether a spreadsheet copy is set up (setting mirrors.spreadsheet_url)' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        failed: [
          {
            lead_id: 31,
            parent_name: 'Robin Hale',
            created_at: '2026-11-22T20:14:00.000Z',
            target: 'spreadsheet',
            status: 'failed',
            attempts: 2,
            last_attempt_at: '2026-11-22T20:20:00.000Z',
            error: 'The spreadsheet did not accept the copy',
          },
        ],
        configured: true,
      },
    ],
  },
)

/** Every copy that is not ok: failed, or still pending after a restart. */
export async function failedCopies(db: Executor) {
  const failed = await db
    .selectFrom('mirror_copies')
    .innerJoin('leads', 'leads.id', 'mirror_copies.lead_id')
    .select([
      'mirror_copies.lead_id',
      'leads.parent_name',
      'leads.created_at',
      'mirror_copies.target',
      'mirror_copies.status',
      'mirror_copies.attempts',
      'mirror_copies.last_attempt_at',
      'mirror_copies.error',
    ])
    .where('mirror_copies.status', '!=', 'ok')
    .orderBy('mirror_copies.lead_id', 'desc')
    .execute()
  return { failed, configured: (await getSetting(db, 'mirrors.spreadsheet_url')) !== null }
}

export const RetryTarget = t.Object(
  { target: OneOf(['spreadsheet', 'notification'] as const, { description: 'Where to replay copies to' }) },
  { additionalProperties: false, examples: [{ target: 'spreadsheet' }] },
)

export const RetryOutcome = t.Object(
  { target: t.Literal('spreadsheet'), attempted: t.Integer(), ok: t.Integer(), failed: t.Integer() },
  { additionalProperties: false, examples: [{ target: 'spreadsheet', attempted: 2, ok: 2, failed: 0 }] },
)

/** Replays every owed spreadsheet copy (a copy already ok is never sent again); notification is not implemented: 422. */
export async function retryCopies(db: Db, outbound: Outbound, caller: Caller, input: typeof RetryTarget.static) {
  if (input.target === 'notification') throw unprocessable('target: the notification target is not implemented')
  const owed = await db
    .selectFrom('mirror_copies')
    .innerJoin('leads', 'leads.id', 'mirror_copies.lead_id')
    .selectAll('leads')
    .where('mirror_copies.target', '=', 'spreadsheet')
    .where('mirror_copies.status', '!=', 'ok')
    .orderBy('leads.id')
    .execute()
  let ok = 0
  for (const lead of owed) if (await copyToSpreadsheet(db, outbound, lead)) ok++
  // Each copy's outcome is stored as it happens (an outside call cannot sit in a transaction); this is the log of the replay.
  await record(db, caller.actor, 'mirrors.retry', `Replayed ${owed.length} spreadsheet copies: ${ok} ok, ${owed.length - ok} failed`)
  return { target: input.target, attempted: owed.length, ok, failed: owed.length - ok }
}
