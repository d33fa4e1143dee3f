// Copies leads to outside targets (the spreadsheet endpoint) after they are stored, never delaying them.
import type { Db } from '../db/client.ts'
import type { Lead } from '../db/database.ts'
import type { Executor } from '../history/record.ts'
import { nowIso } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'

export const MIRROR_TIMEOUT_MS = 5000

/** The targets a new lead is copied to, as configured now. */
export async function configuredTargets(db: Executor): Promise<'spreadsheet'[]> {
  return (await getSetting(db, 'mirrors.spreadsheet_url')) ? ['spreadsheet'] : []
}

/** POSTs the lead to the spreadsheet endpoint and stores the outcome; never throws. */
export async function copyToSpreadsheet(db: Db, lead: Lead): Promise<boolean> {
  const url: string | null = await getSetting(db, 'mirrors.spreadsheet_url')
  let error: string | null = null
  if (!url) error = 'mirrors.spreadsheet_url is not set'
  else {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(publicLead(lead)),
        signal: AbortSignal.timeout(MIRROR_TIMEOUT_MS),
        redirect: 'follow',
      })
      if (!res.ok) error = `HTTP ${res.status} from the spreadsheet endpoint`
      await res.body?.cancel()
    } catch (e) {
      error =
        e instanceof Error && e.name === 'TimeoutError'
          ? `no answer within ${MIRROR_TIMEOUT_MS / 1000} s`
          : `unreachable: ${(e as Error).message}`
    }
  }
  await db
    .updateTable('mirror_copies')
    .set((eb) => ({ status: error ? 'failed' : 'ok', error, last_attempt_at: nowIso(), attempts: eb('attempts', '+', 1) }))
    .where('lead_id', '=', lead.id)
    .where('target', '=', 'spreadsheet')
    .execute()
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
export async function mirrorNewLead(db: Db, leadId: number): Promise<void> {
  const lead = await db.selectFrom('leads').selectAll().where('id', '=', leadId).executeTakeFirst()
  const pending = await db
    .selectFrom('mirror_copies')
    .select('target')
    .where('lead_id', '=', leadId)
    .where('status', '=', 'pending')
    .execute()
  if (lead && pending.some((p) => p.target === 'spreadsheet')) await copyToSpreadsheet(db, lead)
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
      mirrorNewLead(this.db, id)
        .catch((e) => console.error('mirror copy failed', e))
        .finally(() => {
          this.active--
          this.pump()
        })
    }
  }
}
