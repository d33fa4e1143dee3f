// Browser sessions: a random cookie token whose SHA-256 is stored; idle sessions expire.
import type { Executor } from '../db/database.ts'
import { randomToken, sha256 } from './tokens.ts'

export const SESSION_COOKIE = 'site_session'
export const SESSION_IDLE_DAYS = 30
const DAY = 86_400_000
/** last_seen_at is written at most this often per session, never on every request. */
export const TOUCH_INTERVAL_MS = 60_000

/** Where a sign-in comes from, as a session records it. */
export interface Client {
  address: string | null
  userAgent: string | null
}

export async function createSession(db: Executor, personId: number, { address, userAgent }: Client) {
  const token = randomToken()
  const now = Date.now()
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      person_id: personId,
      created_at: new Date(now).toISOString(),
      last_seen_at: new Date(now).toISOString(),
      expires_at: new Date(now + SESSION_IDLE_DAYS * DAY).toISOString(),
      address,
      user_agent: userAgent?.slice(0, 300) ?? null,
    })
    .execute()
  return token
}

/** The live session whose token hashes to `tokenHash`, sliding its expiry forward at most once a minute. */
export async function findSession(db: Executor, tokenHash: string) {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'person_id', 'last_seen_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
  const now = Date.now()
  if (!row || Date.parse(row.expires_at) <= now) return null
  if (now - Date.parse(row.last_seen_at) < TOUCH_INTERVAL_MS) return row
  const touched = { last_seen_at: new Date(now).toISOString(), expires_at: new Date(now + SESSION_IDLE_DAYS * DAY).toISOString() }
  await db.updateTable('sessions').set(touched).where('id', '=', row.id).execute()
  return { ...row, ...touched }
}

export async function endSessionsOf(db: Executor, personId: number) {
  await db.deleteFrom('sessions').where('person_id', '=', personId).execute()
}
