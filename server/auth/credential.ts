// Resolves a request's credential (session cookie, bearer key or break-glass token) into a caller.
import type { Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { badRequest, forbidden, tooMany, unauthorized } from '../errors.ts'
import { record } from '../db/write.ts'
import { recordSlowedDown, type Throttle } from './login-throttle.ts'
import { loadPerson, personCapabilities, type PersonInfo } from './person.ts'
import { getSetting, loadedSetting } from '../settings/registry.ts'
import type { AddressRules } from './address.ts'
import { BREAK_GLASS_CAPABILITIES, type Capability } from './capabilities.ts'
import { authEpoch } from '../db/auth-epoch.ts'
import { type SecondFactorStatus, secondFactorStatus } from './second-factor-policy.ts'
import { findSession, SESSION_COOKIE, TOUCH_INTERVAL_MS } from './sessions.ts'
import { hasKeyShape, isWellFormedKey, sameSecret, sha256 } from './tokens.ts'

export interface Caller {
  via: 'session' | 'key' | 'break_glass'
  person: PersonInfo | null
  capabilities: ReadonlySet<Capability>
  key: { id: number; label: string } | null
  sessionId: number | null
  /** How the action log names this caller. */
  actor: string
  /** The person's standing with the second-factor setting (null for the break-glass token). */
  secondFactor: SecondFactorStatus | null
}

export interface AuthContext {
  db: Db
  env: Readonly<Env>
  rules: AddressRules
  /** Slows down wrong break-glass tokens per address. */
  breakGlass: Throttle
}

export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return null // a malformed cookie is no session
      }
    }
  }
  return null
}

/**
 * A person as a caller: everything their roles give. A session whose second factor is overdue (`locked`) holds only
 * `account:self` and reaches only the account page's routes until the person adds one.
 */
export const personCallerOf = (
  person: PersonInfo,
  sessionId: number | null = null,
  secondFactor: SecondFactorStatus | null = null,
): Caller => ({
  via: 'session',
  person,
  capabilities: new Set(secondFactor?.locked ? ['account:self' as const] : personCapabilities(person)),
  key: null,
  sessionId,
  actor: person.email,
  secondFactor,
})

/**
 * A key as a caller: its scopes intersected with its owner's current capabilities; none at all while the owner's
 * second factor is overdue (`locked`), so a key cannot outlast the rule that locks its owner's sessions.
 */
export function keyCallerOf(
  person: PersonInfo,
  key: { id: number; label: string; scopes: string },
  secondFactor: SecondFactorStatus | null = null,
): Caller {
  const held = new Set(secondFactor?.locked ? [] : personCapabilities(person))
  return {
    via: 'key',
    person,
    capabilities: new Set((JSON.parse(key.scopes) as Capability[]).filter((c) => held.has(c))),
    key: { id: key.id, label: key.label },
    sessionId: null,
    actor: `key:${key.label}#${key.id} (${person.email})`,
    secondFactor,
  }
}

interface Cached {
  caller: Caller
  expiresAt: number | null
  /** When the key or session was last written as used: past TOUCH_INTERVAL_MS the next request writes it again. */
  lastUsed: number
  epoch: number
  cachedAt: number
}
/** A backstop for changes made outside the service (SQL by hand): entries are re-read at least this often. */
const CACHE_MS = 10_000

/**
 * Live credentials by the hash of their secret, so a request costs one hash and one map lookup; an entry is
 * dropped by any write that can change what a credential may do (the auth epoch). Keys and sessions are kept
 * apart, so a key's secret sent as a session cookie is never taken for a session.
 */
class CredentialCache {
  #entries = new Map<string, Cached>()

  /** The entry when it is known and fresh, else null (read the database then). */
  known(hash: string): Cached | null {
    const cached = this.#entries.get(hash)
    return cached && cached.epoch === authEpoch.value && Date.now() - cached.cachedAt < CACHE_MS ? cached : null
  }

  /** Usable at once, with no write due: not expired and used within the touch interval. */
  current(hash: string): Cached | null {
    const cached = this.known(hash)
    const now = Date.now()
    return cached && (cached.expiresAt === null || cached.expiresAt > now) && now - cached.lastUsed < TOUCH_INTERVAL_MS ? cached : null
  }

  set(hash: string, entry: Cached) {
    if (this.#entries.size > 10_000) this.#entries.clear()
    this.#entries.set(hash, entry)
  }

  delete(hash: string) {
    this.#entries.delete(hash)
  }
}
const keyCache = new CredentialCache()
const sessionCache = new CredentialCache()

/** The caller a key stands for (its owner's current capabilities ∩ its scopes), or null when it is dead. */
async function keyCaller(ctx: AuthContext, hash: string, secret: string): Promise<Cached | null> {
  const cached = keyCache.known(hash)
  if (cached) return cached
  // Checked only when the key is not known already: a wrong checksum is refused before any database lookup.
  if (!isWellFormedKey(secret)) throw unauthorized('Malformed API key')
  // Taken before reading, so a write that lands meanwhile makes this entry stale at once.
  const epoch = authEpoch.value
  const key = await ctx.db
    .selectFrom('api_keys')
    .innerJoin('people', 'people.id', 'api_keys.person_id')
    .select([
      'api_keys.id',
      'api_keys.label',
      'api_keys.scopes',
      'api_keys.person_id',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
    ])
    .where('api_keys.token_hash', '=', hash)
    .executeTakeFirst()
  const person = key && !key.revoked_at ? await loadPerson(ctx.db, key.person_id) : null
  if (!key || !person || person.disabled) {
    keyCache.delete(hash)
    return null
  }
  const entry: Cached = {
    caller: keyCallerOf(person, key, await secondFactorStatus(ctx.db, person)),
    expiresAt: key.expires_at ? Date.parse(key.expires_at) : null,
    lastUsed: key.last_used_at ? Date.parse(key.last_used_at) : 0,
    epoch,
    cachedAt: Date.now(),
  }
  keyCache.set(hash, entry)
  return entry
}

/**
 * Called for /api/admin and /api/docs only: nothing else on the site reads keys.
 * Gives the caller, null for an anonymous request, or throws 401 (dead or wrong credential) or 403 (a
 * credential used from a network it is not allowed from). A key already known, with the settings read, is
 * answered at once: no promise for the request a script sends most.
 */
export function authenticate(
  ctx: AuthContext,
  request: Request,
  addressOf: (request: Request) => string | null,
): Caller | null | Promise<Caller | null> {
  const breakGlass = request.headers.get('x-admin-token')
  // Which one was meant is not ours to guess; refused before the token is checked, so it counts as no wrong token.
  if (breakGlass !== null && request.headers.get('authorization') !== null)
    throw badRequest('Send one credential: Authorization (a key) or X-Admin-Token, not both', 'ambiguous_credentials')
  if (breakGlass !== null) {
    const address = addressOf(request)
    if (!ctx.rules.isLan(address)) throw forbidden('The break-glass token works only from the LAN', 'network_not_allowed')
    return breakGlassCaller(ctx, address, breakGlass)
  }

  const authorization = request.headers.get('authorization')
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization)
    if (!match || !hasKeyShape(match[1])) throw unauthorized('Malformed API key')
    const hash = sha256(match[1])
    const known = keyCache.current(hash)
    const from = loadedSetting(ctx.db, 'api_keys_from')
    if (known && from !== undefined) return keyAllowed(ctx, request, addressOf, known, from)
    return keyedCaller(ctx, request, addressOf, hash, match[1])
  }

  const token = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
  if (!token) return null
  const hash = sha256(token)
  return sessionCache.current(hash)?.caller ?? sessionCaller(ctx, hash)
}

const BREAK_GLASS_CALLER: Caller = Object.freeze({
  via: 'break_glass',
  person: null,
  capabilities: new Set(BREAK_GLASS_CAPABILITIES),
  key: null,
  sessionId: null,
  actor: 'break_glass',
  secondFactor: null,
})

/**
 * The break-glass token from the LAN: wrong ones are logged and slowed down per address like failed sign-ins
 * (429 with Retry-After), so the token cannot be guessed at full speed; an unset ADMIN_TOKEN refuses every one.
 */
function breakGlassCaller(ctx: AuthContext, address: string | null, token: string): Caller | Promise<Caller> {
  const from = address ?? 'an unknown address'
  const slowed = ctx.breakGlass.begin(address, null)
  if (slowed)
    return recordSlowedDown(
      ctx.db,
      'login.break_glass',
      slowed.tally,
      (count) => `Break-glass token slowed down from ${from} after wrong ones: ${count} refused in a minute`,
    ).then(() => {
      throw tooMany('Too many wrong break-glass tokens from this address; wait and try again', slowed.seconds)
    })
  const right = ctx.env.adminToken !== null && sameSecret(token, ctx.env.adminToken)
  ctx.breakGlass.finish(address, null, right ? 'passed' : 'failed')
  if (right) return BREAK_GLASS_CALLER
  return record(ctx.db, 'anonymous', 'login.break_glass', `A wrong break-glass token from ${from}`).then(() => {
    throw unauthorized('Wrong break-glass token')
  })
}

/** A key's caller once its entry and the `api_keys_from` setting are in hand: 401 when expired, 403 off the LAN. */
function keyAllowed(ctx: AuthContext, request: Request, addressOf: (request: Request) => string | null, key: Cached | null, from: string) {
  if (!key || (key.expiresAt !== null && key.expiresAt <= Date.now())) throw unauthorized('API key is unknown, revoked or expired')
  if (from === 'lan' && !ctx.rules.isLan(addressOf(request)))
    throw forbidden('API keys work only from the LAN (setting api_keys_from)', 'network_not_allowed')
  return key.caller
}

/** A key not known yet (or due for its `last_used_at`), read from the database. */
async function keyedCaller(
  ctx: AuthContext,
  request: Request,
  addressOf: (request: Request) => string | null,
  hash: string,
  secret: string,
): Promise<Caller> {
  const key = await keyCaller(ctx, hash, secret)
  const caller = keyAllowed(ctx, request, addressOf, key, await getSetting(ctx.db, 'api_keys_from'))
  const now = Date.now()
  if (key && now - key.lastUsed >= TOUCH_INTERVAL_MS) {
    key.lastUsed = now
    await ctx.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', key.caller.key!.id)
      .execute()
  }
  return caller
}

/** A session not known yet (or due for its `last_seen_at`), read from the database. */
async function sessionCaller(ctx: AuthContext, hash: string): Promise<Caller> {
  // Taken before reading, so a write that lands meanwhile makes this entry stale at once.
  const epoch = authEpoch.value
  const session = await findSession(ctx.db, hash)
  const person = session && (await loadPerson(ctx.db, session.person_id))
  if (!session || !person || person.disabled) {
    sessionCache.delete(hash)
    throw unauthorized('Your session has ended; sign in again')
  }
  const caller = personCallerOf(person, session.id, await secondFactorStatus(ctx.db, person))
  sessionCache.set(hash, {
    caller,
    expiresAt: Date.parse(session.expires_at),
    lastUsed: Date.parse(session.last_seen_at),
    epoch,
    cachedAt: Date.now(),
  })
  return caller
}
