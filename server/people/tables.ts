// The people tables' types: accounts, their unit roles, and the one-time links that make or reset them (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'
import type { GlobalRole, UnitRole } from '../auth/capabilities.ts'

export interface PersonTable {
  id: Generated<number>
  email: string
  name: string | null
  password_hash: string
  global_role: GlobalRole | null
  disabled_at: string | null
  created_at: string
  /** Since when security.second_factor asks this person for a second factor; null while it does not. */
  second_factor_asked_since: string | null
  /** 1 when a unit leader gets a mail for each new lead of their unit (the account page turns it off). */
  lead_alerts: Generated<number>
  /** 1 when the person's email may appear beside their name on the public unit page. */
  show_email: Generated<number>
}

export interface MembershipTable {
  person_id: number
  unit_id: number
  role: UnitRole
  title: string | null
}

export interface InviteTable {
  id: Generated<number>
  token_hash: string
  email: string
  global_role: GlobalRole | null
  units: string // JSON array of {unit_id, role, title}
  invited_by: string
  created_at: string
  expires_at: string
  revoked_at: string | null
  used_at: string | null
  person_id: number | null
  /** Who issued it (the person, and their key when a key did): it works only while they could issue it still. */
  issuer_person_id: number | null
  issuer_key_id: number | null
  /** The household the account is linked to on acceptance. */
  household_id: number | null
}
export type Invite = Selectable<InviteTable>

export interface SetupTokenTable {
  id: Generated<number>
  token_hash: string
  created_at: string
  used_at: string | null
}
export type SetupToken = Selectable<SetupTokenTable>

export interface ResetLinkTable {
  id: Generated<number>
  token_hash: string
  person_id: number
  created_by: string
  created_at: string
  expires_at: string
  used_at: string | null
  revoked_at: string | null
  issuer_person_id: number | null
  issuer_key_id: number | null
  /** 1 for a link the person asked for on the sign-in page: it needs no leader, only that the person is still active. */
  asked_by_self: Generated<number>
}
export type ResetLink = Selectable<ResetLinkTable>
