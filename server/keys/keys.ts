// API keys: how a key is shown (never its secret or hash), the scopes a caller may put on one, and minting and
// revoking the caller's own keys.
import { CAPABILITIES, type Capability, UNSCOPABLE } from '../auth/capabilities.ts'
import type { Caller } from '../auth/credential.ts'
import { newKeySecret, sha256 } from '../auth/tokens.ts'
import type { Executor } from '../db/database.ts'
import type { ApiKey } from './tables.ts'
import type { Db } from '../db/client.ts'
import { record, unchanged, write } from '../db/write.ts'
import { assertConfirmed } from '../account/confirm.ts'
import { queueSecurityNotice } from '../account/security-notice.ts'
import type { MailSender } from '../mail/sender.ts'
import { closeLinksIssued } from '../people/link-issuers.ts'
import { conflict, forbidden, notFound, unprocessable } from '../errors.ts'
import { Instant, Line, Nullable, nowIso, OneOf, OneTime, t, withMessage } from '../schemas.ts'

export const KEY_STATES = ['active', 'expired', 'revoked'] as const
export const CapabilityName = OneOf(CAPABILITIES, { description: 'A capability, as the roles table names it' })

const KEY_EXAMPLE = {
  id: 7,
  label: 'photo uploader',
  scopes: ['socialposts:ingest'],
  state: 'active',
  hint: 'k3Zq',
  created_at: '2026-11-20T19:02:11.000Z',
  expires_at: '2027-02-18T19:02:11.000Z',
  revoked_at: null,
  last_used_at: '2026-11-23T07:15:40.000Z',
}

export const KeyView = t.Object(
  {
    id: t.Integer(),
    label: t.String(),
    scopes: t.Array(CapabilityName),
    state: OneOf(KEY_STATES),
    hint: t.String({ description: 'The first four characters after site_, to tell keys apart' }),
    created_at: Instant,
    expires_at: Nullable(Instant),
    revoked_at: Nullable(Instant),
    last_used_at: Nullable(Instant),
  },
  { $id: 'Key', additionalProperties: false, examples: [KEY_EXAMPLE] },
)

export const KeyList = t.Object(
  {
    keys: t.Array(KeyView, { description: 'Newest first' }),
    grantable_scopes: t.Array(CapabilityName, { description: 'What the caller may put on a new key' }),
  },
  { additionalProperties: false, examples: [{ keys: [KEY_EXAMPLE], grantable_scopes: ['leads:read', 'announcements:write'] }] },
)

export const NewKey = t.Object(
  {
    label: Line(100, { minLength: 1, description: 'What the key is for' }),
    scopes: withMessage(t.Array(CapabilityName, { minItems: 1, uniqueItems: true }), 'must be one or more capability names'),
    expires_days: t.Optional(withMessage(t.Integer({ minimum: 1, maximum: 365 }), 'must be a whole number of days from 1 to 365')),
  },
  { additionalProperties: false, examples: [{ label: 'photo uploader', scopes: ['socialposts:ingest'], expires_days: 90 }] },
)

export const MintedKey = t.Object(
  {
    ...KeyView.properties,
    key: OneTime(t.String({ description: 'The secret: send it as `Authorization: Bearer …`. Shown in this answer only' })),
  },
  { additionalProperties: false, examples: [{ ...KEY_EXAMPLE, key: 'site_k3ZqV0d1mB8yQ2c7XrT5nL9wE4aP6sJ0hG3fK1uY8iO2zMb7Wq4' }] },
)

export function keyState(key: Pick<ApiKey, 'revoked_at' | 'expires_at'>, now = Date.now()): (typeof KEY_STATES)[number] {
  if (key.revoked_at) return 'revoked'
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired'
  return 'active'
}

export const keyView = (key: ApiKey) => ({
  id: key.id,
  label: key.label,
  scopes: JSON.parse(key.scopes) as Capability[],
  state: keyState(key),
  hint: key.hint,
  created_at: key.created_at,
  expires_at: key.expires_at,
  revoked_at: key.revoked_at,
  last_used_at: key.last_used_at,
})

export const grantableScopes = (held: ReadonlySet<Capability>) => CAPABILITIES.filter((c) => held.has(c) && !UNSCOPABLE.includes(c))

export async function listKeys(db: Executor, caller: Caller) {
  const rows = await db.selectFrom('api_keys').selectAll().where('person_id', '=', caller.person!.id).orderBy('id', 'desc').execute()
  return { keys: rows.map(keyView), grantable_scopes: grantableScopes(caller.capabilities) }
}

/** One of the caller's keys as the list shows it; someone else's key is 404, never 403. */
export async function keyById(db: Executor, caller: Caller, id: number) {
  const key = await db.selectFrom('api_keys').selectAll().where('id', '=', id).where('person_id', '=', caller.person!.id).executeTakeFirst()
  if (!key) throw notFound('No such key')
  return key
}

/** A new key for the caller: 422 for a scope no key may carry, 403 for one the caller does not hold. */
export async function mintKey(db: Db, mail: MailSender | null, caller: Caller, input: typeof NewKey.static) {
  const unscopable = input.scopes.filter((s) => UNSCOPABLE.includes(s))
  if (unscopable.length) throw unprocessable(`scopes: ${unscopable.join(', ')} cannot be put on a key`)
  const missing = input.scopes.filter((s) => !caller.capabilities.has(s))
  if (missing.length) throw forbidden(`scopes: you do not hold ${missing.join(', ')}`)
  await assertConfirmed(db, caller)
  const secret = newKeySecret()
  const now = new Date()
  const minted = await write(db, async (trx) => {
    const row = await trx
      .insertInto('api_keys')
      .values({
        person_id: caller.person!.id,
        label: input.label,
        scopes: JSON.stringify(input.scopes),
        token_hash: sha256(secret),
        hint: secret.slice(5, 9),
        created_at: now.toISOString(),
        expires_at: input.expires_days ? new Date(now.getTime() + input.expires_days * 86_400_000).toISOString() : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(trx, caller.actor, 'keys.mint', `Made the key “${input.label}” (${input.scopes.join(', ')})`)
    await queueSecurityNotice(trx, mail, caller.person!.email, `An API key “${input.label}” was made (${input.scopes.join(', ')})`)
    return { ...keyView(row), key: secret }
  })
  mail?.wake()
  return minted
}

/** Revokes one of the caller's keys and closes the invite and reset links it issued; someone else's key is 404, never 403. */
export function revokeKey(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const key = await keyById(trx, caller, id)
    if (key.revoked_at) throw conflict('The key is already revoked')
    const revoked = await trx
      .updateTable('api_keys')
      .set({ revoked_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    // What a leaked key issued goes with it.
    const closed = await closeLinksIssued(trx, { keyId: id }, revoked.revoked_at!)
    const also = closed ? ` and closed the ${closed === 1 ? 'link' : `${closed} links`} it gave` : ''
    await record(trx, caller.actor, 'keys.revoke', `Revoked the key “${key.label}”${also}`)
    return keyView(revoked)
  })
}

/** Revokes every key of a person not revoked yet and closes the links each issued: how many keys. */
export async function revokeKeysOf(trx: Executor, personId: number, now: string): Promise<number> {
  const keys = await trx
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute()
  for (const key of keys) await closeLinksIssued(trx, { keyId: key.id }, now)
  return keys.length
}

export const KeysRevoked = t.Object(
  { revoked: t.Integer({ minimum: 0, description: 'How many keys were revoked (0: none was left)' }) },
  { additionalProperties: false, examples: [{ revoked: 2 }] },
)

/** Revokes all the caller's keys at once (after a password change that was not theirs to begin with, say). */
export function revokeAllKeys(db: Db, caller: Caller) {
  return write(db, async (trx) => {
    const revoked = await revokeKeysOf(trx, caller.person!.id, nowIso())
    if (revoked) await record(trx, caller.actor, 'keys.revoke', `Revoked all their keys (${revoked})`)
    else unchanged(trx)
    return { revoked }
  })
}
