// Safe retries: a POST (or a PUT marked `retried`) sent with an `Idempotency-Key` keeps its first answer for a day, per
// credential, and the same key with the same request gets that answer again (marked `Idempotent-Replayed: true`)
// instead of doing the work twice; the same key with another request is refused. A retry that arrives while the first is still running waits
// for it. Answers of 500 and up are not kept (a retry may succeed), nor answers that set a cookie (a session is
// never handed out twice); the kept copy leaves out the fields the route's answer marks as one-time secrets
// (`OneTime` in schemas.ts), so a replay answers the resource without its secret. The nightly upkeep deletes keys older than a day (server/ops/tidy.ts).
// A crash must not make a retry do the work twice: each write a signed-in caller's request commits keeps its result
// in the slot in the same transaction (status 0: done, no answer yet; db/write-memo.ts), so a retry that finds such
// a slot runs the route again with those writes handed back instead of done, and answers as the first would have.
import { createHash } from 'node:crypto'
import type { Db } from '../db/client.ts'
import type { Trx } from '../db/write.ts'
import { rememberingDb, type WriteMemo } from '../db/write-memo.ts'
import { HttpError, unprocessable } from '../errors.ts'
import type { Caller } from '../auth/credential.ts'
import { refusal } from './error-response.ts'

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000
const WELL_FORMED = /^[\x21-\x7e]{1,255}$/

/**
 * Who a kept answer belongs to: the session, the key, the break-glass token, or for a public form the address; null
 * for an anonymous client whose address is unknown, whose answers are never kept (strangers behind an untrusted
 * proxy would otherwise share one slot and be replayed each other's answers).
 */
export function credentialOf(caller: Caller | null, address: string | null): string | null {
  if (!caller) return address === null ? null : `address:${address}`
  if (caller.via === 'session') return `session:${caller.sessionId}`
  if (caller.via === 'key') return `key:${caller.key?.id}`
  return 'break_glass'
}

export class Idempotency {
  private readonly running = new Map<string, Promise<unknown>>()

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer to a POST with `key`: the kept one, or `run`'s, kept for next time. */
  async answer(
    request: Request,
    credential: string | null,
    key: string,
    body: unknown,
    run: (db?: Db) => Promise<Response>,
    secrets: string[] = [],
  ): Promise<Response> {
    if (!WELL_FORMED.test(key))
      throw unprocessable('Idempotency-Key: must be 1 to 255 visible ASCII characters', undefined, 'Idempotency-Key')
    if (credential === null) return run()
    const url = new URL(request.url)
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${url.pathname}${url.search}\n${JSON.stringify(body ?? null)}`)
      .digest('base64url')
    const slot = `${credential}\n${key}`
    while (this.running.has(slot)) await this.running.get(slot)!.catch(() => {})
    const since = new Date(this.now() - IDEMPOTENCY_WINDOW_MS).toISOString()
    const kept = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('credential', '=', credential)
      .where('key', '=', key)
      .where('created_at', '>', since)
      .executeTakeFirst()
    if (kept) {
      if (kept.fingerprint !== fingerprint)
        throw unprocessable(
          'Idempotency-Key: was used for another request in the last 24 hours; send a new key for a new request',
          'idempotency_key_reused',
          'Idempotency-Key',
        )
      if (kept.status !== UNANSWERED) {
        const headers: Record<string, string> = { 'idempotent-replayed': 'true', 'cache-control': 'no-store' }
        if (kept.content_type) headers['content-type'] = kept.content_type
        return new Response(kept.status === 204 ? null : new Uint8Array(kept.body), { status: kept.status, headers })
      }
    }
    const done = kept ? (JSON.parse(new TextDecoder().decode(kept.body)) as { v?: unknown }[]) : []
    const first = this.first(credential, key, fingerprint, run, secrets, done)
    this.running.set(slot, first)
    try {
      return await first
    } finally {
      this.running.delete(slot)
    }
  }

  private async first(
    credential: string,
    key: string,
    fingerprint: string,
    run: (db?: Db) => Promise<Response>,
    secrets: string[],
    done: { v?: unknown }[],
  ): Promise<Response> {
    // Not for an anonymous caller's slot (a sign-in's writes hold session tokens), nor where the answer holds a
    // one-time secret, which its write's result would hold too: those keep their answer after the route only.
    const resumed = done.length > 0
    const memo: WriteMemo = { done, next: 0, keep: (trx, all) => this.keepWrites(trx, credential, key, fingerprint, all) }
    const db = credential.startsWith('address:') || secrets.length ? undefined : rememberingDb(this.db, memo)
    let response: Response
    try {
      response = await run(db)
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      response = refusal(error)
    }
    // A test's crash (tests/reliability/idempotency-crash.test.ts), never in production: the process dies after the
    // route's writes committed and before its answer is kept or sent, the window a real crash can hit.
    if (process.env.NODE_ENV === 'test' && process.env.TEST_ONLY_DIE_BEFORE_ANSWER_KEPT === key) process.kill(process.pid, 'SIGKILL')
    // A 5xx leaves the writes it committed in the slot (a retry does not do them again), but no answer.
    if (response.status >= 500) return response
    if (response.headers.has('set-cookie')) {
      await this.db.deleteFrom('idempotency_keys').where('credential', '=', credential).where('key', '=', key).execute()
      return response
    }
    const bytes = new Uint8Array(await response.arrayBuffer())
    const row = {
      fingerprint,
      status: response.status,
      content_type: response.headers.get('content-type'),
      body: withoutSecrets(bytes, response.headers.get('content-type'), secrets),
      created_at: new Date(this.now()).toISOString(),
    }
    await this.db
      .insertInto('idempotency_keys')
      .values({ credential, key, ...row })
      .onConflict((oc) => oc.columns(['credential', 'key']).doUpdateSet(row))
      .execute()
    const headers = new Headers(response.headers)
    // Writes an earlier attempt committed were handed back, not done: the answer is the earlier attempt's.
    if (resumed) headers.set('idempotent-replayed', 'true')
    return new Response(response.status === 204 ? null : bytes, { status: response.status, headers })
  }

  /** Keeps the results of the writes done so far in the slot, inside the write's own transaction. */
  private async keepWrites(trx: Trx, credential: string, key: string, fingerprint: string, done: { v?: unknown }[]) {
    const row = {
      fingerprint,
      status: UNANSWERED,
      content_type: null,
      body: new TextEncoder().encode(JSON.stringify(done)),
      created_at: new Date(this.now()).toISOString(),
    }
    await trx
      .insertInto('idempotency_keys')
      .values({ credential, key, ...row })
      .onConflict((oc) => oc.columns(['credential', 'key']).doUpdateSet(row))
      .execute()
  }
}

/** The status of a slot whose writes committed but whose answer is not kept yet. */
const UNANSWERED = 0

/** A JSON answer's bytes without its one-time secret fields, as kept for a replay. */
function withoutSecrets(bytes: Uint8Array, contentType: string | null, secrets: string[]): Uint8Array {
  if (!secrets.length || !contentType?.startsWith('application/json')) return bytes
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bytes
  const kept = Object.fromEntries(Object.entries(value).filter(([field]) => !secrets.includes(field)))
  return new TextEncoder().encode(JSON.stringify(kept))
}

/** Deletes the kept answers older than the window. */
export async function forgetOldIdempotencyKeys(db: Db, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString())
    .execute()
}
