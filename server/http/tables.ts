// The idempotency keys table's type (composed into Database by db/database.ts).

export interface IdempotencyKeyTable {
  /** Who sent it: `session:<id>`, `key:<id>`, `break_glass` or `address:<client>`. */
  credential: string
  key: string
  /** A hash of the method, path and body: the same key with another request is refused. */
  fingerprint: string
  status: number
  content_type: string | null
  body: Uint8Array
  created_at: string
}
