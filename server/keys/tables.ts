// The API keys table's type (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export interface ApiKeyTable {
  id: Generated<number>
  person_id: number
  label: string
  scopes: string // JSON array of capability names
  token_hash: string
  hint: string
  created_at: string
  expires_at: string | null
  revoked_at: string | null
  last_used_at: string | null
}
export type ApiKey = Selectable<ApiKeyTable>
