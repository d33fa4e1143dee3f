// The sessions table's type (composed into Database by db/database.ts).
import type { Generated } from 'kysely'

export interface SessionTable {
  id: Generated<number>
  token_hash: string
  person_id: number
  created_at: string
  last_seen_at: string
  expires_at: string
  address: string | null
  user_agent: string | null
  /** When the session last confirmed it is its person (POST /api/admin/account/confirm); null never. */
  confirmed_at: Generated<string | null>
}

/** A secret the server keeps for itself (`reply_link`: the key of the reply links' HMAC). */
export interface ServerSecretTable {
  name: string
  secret: string
  created_at: string
}
