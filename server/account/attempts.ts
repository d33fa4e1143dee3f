// A password or a second-factor code checked for a person: at sign-in, and again on the account page (changing the
// password, new recovery codes, removing a factor). Every check runs under the sign-in slow-downs of that person
// from that address (codes under the longer second-factor one too), and a wrong one is logged as a failed sign-in,
// so neither a sign-in ticket nor a stolen session or key can be used to guess them.
import { recordSlowedDown, type Slowed, type Throttle } from '../auth/login-throttle.ts'
import type { Executor } from '../db/database.ts'
import { record } from '../db/write.ts'
import { tooMany } from '../errors.ts'
import { verifyPassword } from '../auth/passwords.ts'

/** 429 for an attempt the slow-down holds back, logged once a minute per slowed-down key with the count. */
export async function refuseSlowedDown(db: Executor, slowed: Slowed, email: string | null, address: string | null): Promise<never> {
  const from = address ?? 'an unknown address'
  const whose = { address: `from ${from}`, pair: `for ${email} from ${from}`, subject: `for ${email} from any address` }[slowed.tally.by]
  await recordSlowedDown(
    db,
    'login.failure',
    slowed.tally,
    (count) => `Sign-ins ${whose} slowed down after repeated failures: ${count} refused in a minute`,
  )
  throw tooMany('Too many failed sign-ins; wait a moment and try again', slowed.seconds)
}

export interface Throttles {
  signIn: Throttle
  secondFactor: Throttle
}

/**
 * Runs `attempt` (a code or passkey check giving null when wrong) for `email` from `address` under both slow-downs:
 * 429 while held back; a wrong answer is logged with `what` and counted, a right one clears this client's count.
 */
export async function codeAttempt<T>(
  db: Executor,
  throttles: Throttles,
  from: { address: string | null; email: string; what: string },
  attempt: () => Promise<T | null>,
): Promise<T | null> {
  const { address, email } = from
  const held = throttles.secondFactor.begin(address, email)
  if (held) await refuseSlowedDown(db, held, email, address)
  const slowed = throttles.signIn.begin(address, email)
  if (slowed) {
    throttles.secondFactor.finish(address, email, 'pending')
    await refuseSlowedDown(db, slowed, email, address)
  }
  let result: T | null = null
  try {
    result = await attempt()
  } finally {
    throttles.signIn.finish(address, email, result === null ? 'failed' : 'passed')
    throttles.secondFactor.finish(address, email, result === null ? 'failed' : 'passed')
  }
  if (result === null) await record(db, 'anonymous', 'login.failure', `${from.what} for ${email} from ${address ?? 'an unknown address'}`)
  return result
}

/** Checks a signed-in person's own password under the sign-in slow-down: whether it is right (a wrong one is logged). */
export async function passwordAttempt(
  db: Executor,
  throttle: Throttle,
  from: { address: string | null; personId: number; email: string; what: string },
  password: string,
): Promise<boolean> {
  const slowed = throttle.begin(from.address, from.email)
  if (slowed) await refuseSlowedDown(db, slowed, from.email, from.address)
  let right = false
  try {
    const row = await db.selectFrom('people').select('password_hash').where('id', '=', from.personId).executeTakeFirstOrThrow()
    right = await verifyPassword(password, row.password_hash)
  } finally {
    throttle.finish(from.address, from.email, right ? 'passed' : 'failed')
  }
  if (!right) await record(db, 'anonymous', 'login.failure', `${from.what} for ${from.email} from ${from.address ?? 'an unknown address'}`)
  return right
}
