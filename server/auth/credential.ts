// Resolves a request's credential (session cookie, bearer key or break-glass token) into a caller.
import type { Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { forbidden, unauthorized } from '../errors.ts'
import { loadPerson, personCapabilities, type PersonInfo } from '../people/queries.ts'
import { getSetting } from '../settings/registry.ts'
import type { AddressRules } from './address.ts'
import { BREAK_GLASS_CAPABILITIES, type Capability } from './capabilities.ts'
import { findSession, SESSION_COOKIE, TOUCH_INTERVAL_MS } from './sessions.ts'
import { isWellFormedKey, sameSecret, sha256 } from './tokens.ts'

export interface Caller {
  via: 'session' | 'key' | 'break_glass'
  person: PersonInfo | null
  capabilities: ReadonlySet<Capability>
  key: { id: number; label: string } | null
  sessionId: number | null
  /** How the action log names this caller. */
  actor: string
}

export interface AuthContext {
  db: Db
  env: Readonly<Env>
  rules: AddressRules
}

export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
  }
  return null
}

const keyTouched = new Map<number, number>()

/**
 * Called for /api/admin and /api/docs only: nothing else on the site reads keys.
 * Returns the caller, null for an anonymous request, or throws 401 (dead or wrong credential) or
 * 403 (a credential used from a network it is not allowed from).
 */
export async function authenticate(ctx: AuthContext, request: Request, address: string | null): Promise<Caller | null> {
  const breakGlass = request.headers.get('x-admin-token')
  if (breakGlass !== null) {
    if (!ctx.rules.isLan(address)) throw forbidden('The break-glass token works only from the LAN')
    if (!ctx.env.adminToken || !sameSecret(breakGlass, ctx.env.adminToken)) throw unauthorized('Wrong break-glass token')
    return {
      via: 'break_glass',
      person: null,
      capabilities: new Set(BREAK_GLASS_CAPABILITIES),
      key: null,
      sessionId: null,
      actor: 'break_glass',
    }
  }

  const authorization = request.headers.get('authorization')
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization)
    if (!match || !isWellFormedKey(match[1])) throw unauthorized('Malformed API key')
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
        'people.disabled_at',
      ])
      .where('api_keys.token_hash', '=', sha256(match[1]))
      .executeTakeFirst()
    const now = Date.now()
    if (!key || key.revoked_at || key.disabled_at || (key.expires_at && Date.parse(key.expires_at) <= now))
      throw unauthorized('API key is unknown, revoked or expired')
    if ((await getSetting(ctx.db, 'api_keys_from')) === 'lan' && !ctx.rules.isLan(address))
      throw forbidden('API keys work only from the LAN (setting api_keys_from)')
    const person = await loadPerson(ctx.db, key.person_id)
    if (!person || person.disabled) throw unauthorized('API key is unknown, revoked or expired')
    const last = Math.max(keyTouched.get(key.id) ?? 0, key.last_used_at ? Date.parse(key.last_used_at) : 0)
    if (now - last >= TOUCH_INTERVAL_MS) {
      keyTouched.set(key.id, now)
      await ctx.db
        .updateTable('api_keys')
        .set({ last_used_at: new Date(now).toISOString() })
        .where('id', '=', key.id)
        .execute()
    }
    const held = new Set(personCapabilities(person))
    const scopes = (JSON.parse(key.scopes) as Capability[]).filter((c) => held.has(c))
    return {
      via: 'key',
      person,
      capabilities: new Set(scopes),
      key: { id: key.id, label: key.label },
      sessionId: null,
      actor: `key:${key.label}#${key.id} (${person.email})`,
    }
  }

  const token = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
  if (token) {
    const session = await findSession(ctx.db, token)
    const person = session && (await loadPerson(ctx.db, session.person_id))
    if (!session || !person || person.disabled) throw unauthorized('Your session has ended; sign in again')
    return {
      via: 'session',
      person,
      capabilities: new Set(personCapabilities(person)),
      key: null,
      sessionId: session.id,
      actor: person.email,
    }
  }
  return null
}
