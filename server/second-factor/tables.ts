// The second-factor tables' types (composed into Database by db/database.ts).
import type { Generated, Selectable } from 'kysely'

export const SECOND_FACTOR_KINDS = ['totp', 'passkey'] as const
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number]

/** An authenticator app (TOTP, one per person) or a passkey (WebAuthn credential). */
export interface SecondFactorTable {
  id: Generated<number>
  person_id: number
  kind: SecondFactorKind
  name: string
  created_at: string
  /** An authenticator app counts once a code from it was confirmed; a passkey when it is registered. */
  confirmed_at: string | null
  last_used_at: string | null
  /** Base32; the TOTP step last used, so a code works once. */
  totp_secret: string | null
  totp_last_step: number | null
  /** Base64url credential id and public key, the signature counter and transports (JSON). */
  credential_id: string | null
  public_key: string | null
  counter: number | null
  transports: string | null
}
export type SecondFactor = Selectable<SecondFactorTable>

export interface RecoveryCodeTable {
  id: Generated<number>
  person_id: number
  code_hash: string
  created_at: string
  used_at: string | null
}

/** The step between a right password and its second factor (or a passkey sign-in): five minutes, five tries. */
export interface LoginTicketTable {
  id: Generated<number>
  token_hash: string
  /** Null for a passkey sign-in without a password, until the passkey names the person. */
  person_id: number | null
  /** The WebAuthn challenge the passkey must sign, when passkeys may answer. */
  challenge: string | null
  created_at: string
  expires_at: string
  failures: Generated<number>
  used_at: string | null
}

export interface PasskeyChallengeTable {
  person_id: number
  challenge: string
  expires_at: string
}
