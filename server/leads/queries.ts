// Lead reads shared by the list, the detail, the claim routes and the summary.
import { sql } from 'kysely'
import type { Executor } from '../history/record.ts'

const columns = [
  'leads.id',
  'leads.created_at',
  'leads.parent_name',
  'leads.email',
  'leads.phone',
  'leads.scout_name',
  'leads.scout_grade',
  'leads.unit',
  'leads.message',
  'leads.claimed_at',
  'claimer.id as claimer_id',
  'claimer.email as claimer_email',
] as const

export function leadsQuery(db: Executor) {
  return db.selectFrom('leads').leftJoin('people as claimer', 'claimer.id', 'leads.claimed_by').select(columns)
}

type Row = Awaited<ReturnType<ReturnType<typeof leadsQuery>['executeTakeFirstOrThrow']>>

export const leadView = ({ claimer_id, claimer_email, ...lead }: Row) => ({
  ...lead,
  claimed_by: claimer_id === null ? null : { id: claimer_id, email: claimer_email },
})

export async function findLead(db: Executor, id: number) {
  const row = await leadsQuery(db).where('leads.id', '=', id).executeTakeFirst()
  return row ? leadView(row) : null
}

/** Case-insensitive substring match on name, email, phone and message (no LIKE wildcards to escape). */
export const matches = (
  q: string,
) => sql<boolean>`(instr(lower(leads.parent_name), ${q}) > 0 or instr(lower(coalesce(leads.email, '')), ${q}) > 0
  or instr(lower(coalesce(leads.phone, '')), ${q}) > 0 or instr(lower(coalesce(leads.message, '')), ${q}) > 0
  or instr(lower(coalesce(leads.scout_name, '')), ${q}) > 0)`
