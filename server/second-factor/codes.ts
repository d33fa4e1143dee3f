// A person's confirmed factors, and a code used in place of one: what sign-in, the confirm step and the factors'
// own changes all check, so it sits below each of them.
import type { Executor } from '../db/database.ts'
import { looksLikeRecoveryCode, useRecoveryCode } from './recovery-codes.ts'
import { useTotpCode } from './totp.ts'

export const confirmedFactors = (db: Executor, personId: number) =>
  db.selectFrom('second_factors').selectAll().where('person_id', '=', personId).where('confirmed_at', 'is not', null).execute()

/**
 * Uses a code in place of a second factor: six digits from the person's authenticator app, or one of their
 * recovery codes. Which it was, or null for a wrong code.
 */
export async function useCode(trx: Executor, personId: number, code: string): Promise<'authenticator app' | 'recovery code' | null> {
  if (looksLikeRecoveryCode(code)) return (await useRecoveryCode(trx, personId, code)) ? 'recovery code' : null
  const app = (await confirmedFactors(trx, personId)).find((f) => f.kind === 'totp')
  return app && (await useTotpCode(trx, app, code)) ? 'authenticator app' : null
}
