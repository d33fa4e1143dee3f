// How a key row is shown (never its secret or hash) and which scopes a caller may put on a key.
import { CAPABILITIES, type Capability, UNSCOPABLE } from '../auth/capabilities.ts'
import type { ApiKey } from '../db/database.ts'

export function keyState(key: Pick<ApiKey, 'revoked_at' | 'expires_at'>, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (key.revoked_at) return 'revoked'
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired'
  return 'active'
}

export const keyView = (key: ApiKey) => ({
  id: key.id,
  label: key.label,
  scopes: JSON.parse(key.scopes) as Capability[],
  state: keyState(key),
  hint: key.hint,
  created_at: key.created_at,
  expires_at: key.expires_at,
  revoked_at: key.revoked_at,
  last_used_at: key.last_used_at,
})

export const grantableScopes = (held: ReadonlySet<Capability>) => CAPABILITIES.filter((c) => held.has(c) && !UNSCOPABLE.includes(c))
