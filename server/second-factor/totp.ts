// Authenticator apps (TOTP, RFC 6238, through otpauth): one per person, counted once a code from it is confirmed;
// each code works once.
import { Secret, TOTP } from 'otpauth'
import type { Executor } from '../db/database.ts'
import type { SecondFactor } from './tables.ts'
import { nowIso } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'

const PERIOD = 30

/** The TOTP of a stored secret, named for the person's authenticator app: "Pack 123 (robin@example.org)". */
export async function totpFor(db: Executor, email: string, base32: string): Promise<TOTP> {
  return new TOTP({
    issuer: await getSetting(db, 'site.name'),
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(base32),
  })
}

/** A new random secret (160 bits, as RFC 4226 recommends), in base32. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32

/**
 * Checks a six-digit code against the app's secret, allowing one step of clock drift either way, and refusing a
 * code whose step was used before; a good code marks its step and the app's last use.
 */
export async function useTotpCode(trx: Executor, factor: SecondFactor, code: string, now = Date.now()): Promise<boolean> {
  if (!/^\d{6}$/.test(code.replace(/\s/g, '')) || !factor.totp_secret) return false
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(factor.totp_secret) })
  const delta = totp.validate({ token: code.replace(/\s/g, ''), timestamp: now, window: 1 })
  if (delta === null) return false
  const step = Math.floor(now / 1000 / PERIOD) + delta
  if (factor.totp_last_step !== null && step <= factor.totp_last_step) return false
  const marked = await trx
    .updateTable('second_factors')
    .set({ totp_last_step: step, last_used_at: nowIso() })
    .where('id', '=', factor.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst()
  return Number(marked.numUpdatedRows) === 1
}
