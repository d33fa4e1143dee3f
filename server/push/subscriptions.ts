// A person's devices that take notifications (POST/DELETE /api/admin/account/push), the site's VAPID public key
// (GET /api/push/key), and what each person wants by push per kind. An endpoint is an outside address a browser
// chose: it must be https (plain http only inside OUTBOUND_ALLOW: a push service on the LAN or a test stand-in) and
// pass the outbound guard; the sender checks the address it resolves to again before each call.
import { isIP } from 'node:net'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import { notFound, unprocessable } from '../errors.ts'
import type { Outbound } from '../http/outbound.ts'
import { nowIso, OneOf, t } from '../schemas.ts'
import { CHANNELS, type Channel, PUSH_KINDS, type PushKind } from './tables.ts'

const B64URL = '^[A-Za-z0-9_-]+={0,2}$'
export const PushKey = t.Object(
  { public_key: t.String({ description: 'The VAPID public key (base64url, 65 bytes): applicationServerKey for pushManager.subscribe' }) },
  {
    additionalProperties: false,
    examples: [{ public_key: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM' }],
  },
)

export const NewPushSubscription = t.Object(
  {
    endpoint: t.String({ maxLength: 2048, description: 'PushSubscription.endpoint: https (plain http only inside OUTBOUND_ALLOW)' }),
    keys: t.Object(
      {
        p256dh: t.String({ pattern: B64URL, maxLength: 100, description: "The browser's P-256 public key, base64url (65 bytes)" }),
        auth: t.String({ pattern: B64URL, maxLength: 30, description: 'The auth secret, base64url (16 bytes)' }),
      },
      { additionalProperties: false },
    ),
    expirationTime: t.Optional(t.Union([t.Number(), t.Null()], { description: 'Ignored (what PushSubscription.toJSON() gives)' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/dXJbz2…',
        keys: {
          p256dh: 'BIPUL12DLfytvTajnryr2PRdAgXS3HGKiLqndGcJGabyhHheJYlNGCeXl1dn18gSJ1WAkAPIxr4gK0_dQds4yiI',
          auth: 'FPssNDTKnInHVndSTdbKFw',
        },
      },
    ],
  },
)
export const EndpointBody = t.Object(
  { endpoint: t.String({ maxLength: 2048, description: 'The endpoint of the subscription to end' }) },
  { additionalProperties: false, examples: [{ endpoint: 'https://fcm.googleapis.com/fcm/send/dXJbz2…' }] },
)

const ChannelOf = (description: string) => OneOf(CHANNELS, { description })
const KIND_WORDS: Record<PushKind, string> = {
  urgent: 'Urgent messages from leaders (a cancelled campout)',
  reminder: 'Reminders before an event and before its sign-up closes',
  signup: 'News about your sign-up: a place came free, sign the slip again, a sign-up cancelled',
  lead_alert: 'A new family sent the join form (leaders)',
}
const choices = Object.fromEntries(PUSH_KINDS.map((k) => [k, ChannelOf(KIND_WORDS[k])])) as Record<PushKind, ReturnType<typeof ChannelOf>>
export const PushPreferences = t.Partial(t.Object(choices, { additionalProperties: false }), {
  additionalProperties: false,
  examples: [{ urgent: 'both', reminder: 'push' }],
})
export const PushView = t.Object(
  {
    devices: t.Array(
      t.Object(
        {
          id: t.Integer(),
          service: t.String({ description: "The push service's host (fcm.googleapis.com, web.push.apple.com…)" }),
          user_agent: t.Union([t.String(), t.Null()]),
          created_at: t.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Your devices that take notifications' },
    ),
    preferences: t.Object(choices, {
      additionalProperties: false,
      description: 'Per kind: mail, push or both (both at first). Push alone still mails while you have no device.',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        devices: [
          { id: 3, service: 'fcm.googleapis.com', user_agent: 'Mozilla/5.0 (Linux; Android 14)', created_at: '2026-11-28T12:00:00.000Z' },
        ],
        preferences: { urgent: 'both', reminder: 'push', signup: 'both', lead_alert: 'mail' },
      },
    ],
  },
)

/** The site's VAPID key pair, made by the push migration on first start. */
export async function vapidKeys(db: Executor) {
  const rows = await db
    .selectFrom('server_secrets')
    .select(['name', 'secret'])
    .where('name', 'in', ['vapid_public', 'vapid_private'])
    .execute()
  const of = (name: string) => rows.find((r) => r.name === name)!.secret
  return { publicKey: of('vapid_public'), privateKey: of('vapid_private') }
}

const decoded = (value: string) => Buffer.from(value.replace(/=+$/, ''), 'base64url')

/** Why this endpoint may not be kept, or null: https, or http to an address inside OUTBOUND_ALLOW. */
export function endpointProblem(endpoint: string, outbound: Outbound): string | null {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'endpoint: must be an https URL'
  }
  if (url.username || url.password) return 'endpoint: must not carry a user name or password'
  const problem = outbound.problemWith(endpoint)
  if (problem) return `endpoint: ${problem}`
  if (url.protocol === 'https:') return null
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  // A name is looked up when a push goes (the sender refuses plain http to anything outside OUTBOUND_ALLOW then).
  if (url.protocol === 'http:' && (!isIP(host) || outbound.allowListed(host))) return null
  return 'endpoint: must be an https URL (plain http only to an address inside OUTBOUND_ALLOW)'
}

/** Keeps a device's subscription for the caller (201); the same endpoint again moves it to the caller with new keys. */
export async function subscribe(
  db: Db,
  caller: Caller,
  input: typeof NewPushSubscription.static,
  outbound: Outbound,
  userAgent: string | null,
) {
  const problem = endpointProblem(input.endpoint, outbound)
  if (problem) throw unprocessable(problem)
  const key = decoded(input.keys.p256dh)
  if (key.length !== 65 || key[0] !== 4) throw unprocessable('keys.p256dh: must be an uncompressed P-256 public key (65 bytes, base64url)')
  if (decoded(input.keys.auth).length !== 16) throw unprocessable('keys.auth: must be 16 bytes, base64url')
  const person = caller.person!
  await write(db, async (trx) => {
    await trx
      .insertInto('push_subscriptions')
      .values({
        person_id: person.id,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        user_agent: userAgent?.slice(0, 300) ?? null,
        created_at: nowIso(),
        session_id: caller.sessionId,
      })
      .onConflict((c) =>
        c.column('endpoint').doUpdateSet({
          person_id: person.id,
          p256dh: input.keys.p256dh,
          auth: input.keys.auth,
          user_agent: userAgent?.slice(0, 300) ?? null,
          session_id: caller.sessionId,
        }),
      )
      .execute()
    await record(trx, caller.actor, 'account.push_subscribe', `Notifications on a device (${new URL(input.endpoint).host})`)
  })
  return pushView(db, caller)
}

/** Ends one of the caller's subscriptions (200); 404 when the caller has no such endpoint. */
export async function unsubscribe(db: Db, caller: Caller, endpoint: string) {
  await write(db, async (trx) => {
    const row = await trx
      .deleteFrom('push_subscriptions')
      .where('endpoint', '=', endpoint)
      .where('person_id', '=', caller.person!.id)
      .returning('id')
      .executeTakeFirst()
    if (!row) throw notFound('You have no device with that endpoint')
    await dropWaiting(trx, row.id, 'The device turned notifications off')
    await record(trx, caller.actor, 'account.push_unsubscribe', `Notifications off on a device (${hostOf(endpoint)})`)
  })
  return pushView(db, caller)
}

/**
 * Ends the subscriptions these sessions made, in the transaction that ends the sessions (signing out, "sign out
 * there", a password change): a phone signed out of the site no longer shows the account's news.
 */
export async function endPushOfSessions(trx: Executor, sessionIds: number[]) {
  if (!sessionIds.length) return
  const gone = await trx.deleteFrom('push_subscriptions').where('session_id', 'in', sessionIds).returning('id').execute()
  for (const { id } of gone) await dropWaiting(trx, id, 'The device signed out')
}

/** Pushes still waiting for a device that is gone fail with `why` (they have nowhere to go). */
export async function dropWaiting(trx: Executor, subscriptionId: number, why: string) {
  await trx
    .updateTable('push_outbox')
    .set({ state: 'failed', error: why, subscription_id: null })
    .where('subscription_id', '=', subscriptionId)
    .where('state', 'in', ['queued', 'sending'])
    .execute()
  await trx.updateTable('push_outbox').set({ subscription_id: null }).where('subscription_id', '=', subscriptionId).execute()
}

export const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host
  } catch {
    return 'unknown'
  }
}

/** What each person wants per kind: `both` unless they chose. */
export async function channelsOf(db: Executor, personIds: number[], kind: PushKind): Promise<Map<number, Channel>> {
  if (!personIds.length) return new Map()
  const rows = await db
    .selectFrom('push_preferences')
    .select(['person_id', 'channel'])
    .where('person_id', 'in', personIds)
    .where('kind', '=', kind)
    .execute()
  return new Map(rows.map((r) => [r.person_id, r.channel]))
}

export async function pushView(db: Executor, caller: Caller) {
  const id = caller.person!.id
  const [devices, prefs] = await Promise.all([
    db
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'user_agent', 'created_at'])
      .where('person_id', '=', id)
      .orderBy('id')
      .execute(),
    db.selectFrom('push_preferences').select(['kind', 'channel']).where('person_id', '=', id).execute(),
  ])
  return {
    devices: devices.map((d) => ({ id: d.id, service: hostOf(d.endpoint), user_agent: d.user_agent, created_at: d.created_at })),
    preferences: Object.fromEntries(PUSH_KINDS.map((k) => [k, prefs.find((p) => p.kind === k)?.channel ?? 'both'])) as Record<
      PushKind,
      Channel
    >,
  }
}

export async function setPushPreferences(db: Db, caller: Caller, input: typeof PushPreferences.static) {
  const id = caller.person!.id
  await write(db, async (trx) => {
    const before = (await pushView(trx, caller)).preferences
    const changed = PUSH_KINDS.filter((k) => input[k] && input[k] !== before[k])
    if (!changed.length) return unchanged(trx)
    for (const kind of changed)
      await trx
        .insertInto('push_preferences')
        .values({ person_id: id, kind, channel: input[kind]! })
        .onConflict((c) => c.columns(['person_id', 'kind']).doUpdateSet({ channel: input[kind]! }))
        .execute()
    await record(trx, caller.actor, 'account.push_preferences', changed.map((k) => `${k}: ${input[k]}`).join(', '))
  })
  return pushView(db, caller)
}
