// Recovery codes: ten one-time codes shown once when a person's first second factor is added (or when they ask for
// new ones), each usable once in place of the factor; only their SHA-256 is kept.
import { sha256 } from '../auth/tokens.ts'
import type { Executor } from '../db/database.ts'
import { nowIso } from '../schemas.ts'

const COUNT = 10
/** No look-alikes (0/o, 1/l/i), so a code read off paper is typed right. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** `7hq2m-x4k9p`: ten random characters (about 49 bits), in two groups. */
function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint32Array(10))
  const chars = Array.from(bytes, (n) => ALPHABET[n % ALPHABET.length]).join('')
  return `${chars.slice(0, 5)}-${chars.slice(5)}`
}

/** A code as typed (any case, with or without the dash and spaces) to the form it is hashed in. */
const normalised = (code: string) => code.toLowerCase().replace(/[\s-]/g, '')

/** Whether a typed code looks like a recovery code rather than an authenticator app's six digits. */
export const looksLikeRecoveryCode = (code: string) => normalised(code).length === 10

/** Ten new codes in place of any earlier ones (which stop working); shown to the person this once. */
export async function replaceRecoveryCodes(trx: Executor, personId: number): Promise<string[]> {
  await trx.deleteFrom('recovery_codes').where('person_id', '=', personId).execute()
  const codes = Array.from({ length: COUNT }, newCode)
  const now = nowIso()
  for (const code of codes)
    await trx
      .insertInto('recovery_codes')
      .values({ person_id: personId, code_hash: sha256(normalised(code)), created_at: now })
      .execute()
  return codes
}

/** Uses a code once: true when it was one of the person's unused codes (it is used up now). */
export async function useRecoveryCode(trx: Executor, personId: number, code: string): Promise<boolean> {
  const used = await trx
    .updateTable('recovery_codes')
    .set({ used_at: nowIso() })
    .where('person_id', '=', personId)
    .where('code_hash', '=', sha256(normalised(code)))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(used.numUpdatedRows) === 1
}

export async function recoveryCodesLeft(db: Executor, personId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('person_id', '=', personId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
