// The site builds table's type (composed into Database by db/database.ts).
import type { Generated } from 'kysely'

export interface SiteBuildTable {
  id: Generated<number>
  started_at: string
  finished_at: string
  duration_ms: number
  ok: number
  reason: string
  error: string | null
}
