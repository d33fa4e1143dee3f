// The leads tables' types: leads, their search index, refused joins and spreadsheet copies (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const LEAD_UNITS = ['pack', 'troop', 'unsure'] as const
export const MIRROR_STATUSES = ['pending', 'ok', 'failed'] as const

export interface LeadTable {
  id: Generated<number>
  created_at: string
  parent_name: string
  email: string | null
  phone: string | null
  scout_name: string | null
  scout_grade: string | null
  unit: (typeof LEAD_UNITS)[number]
  message: string | null
  claimed_by: number | null
  claimed_at: string | null
}
export type Lead = Selectable<LeadTable>

/** The FTS5 trigram index over the searchable lead fields (migration 0011); its rowid is the lead's id. */
export interface LeadSearchTable {
  rowid: number
}

export interface JoinSpamTable {
  id: Generated<number>
  at: string
  address: string | null
  payload: string
}

export interface MirrorCopyTable {
  lead_id: number
  target: 'spreadsheet'
  status: (typeof MIRROR_STATUSES)[number]
  attempts: number
  last_attempt_at: string | null
  error: string | null
}
