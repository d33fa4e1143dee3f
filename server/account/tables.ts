// The sign-in link tables' types (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const LOGIN_LINK_KINDS = ['asked', 'welcome'] as const

export interface LoginLinkTable {
  id: Generated<number>
  token_hash: string
  email: string
  /** The account it signs in; null for a roster address with no account yet. */
  person_id: number | null
  /** The roster household whose address it was mailed to, when no account had it. */
  household_id: number | null
  /** `asked` on the sign-in page (20 minutes), `welcome` in a roster welcome (7 days). */
  kind: (typeof LOGIN_LINK_KINDS)[number]
  created_at: string
  expires_at: string
  used_at: string | null
  revoked_at: string | null
}
export type LoginLink = Selectable<LoginLinkTable>

export interface RosterWelcomeTable {
  id: Generated<number>
  household_id: number
  email: string
  sent_by: string
  sent_at: string
}
