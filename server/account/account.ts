// Your own account: who you are (whoami), your password and your sessions.
import { CAPABILITIES } from '../auth/capabilities.ts'
import type { Caller } from '../auth/credential.ts'
import { ledUnitsView } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import type { Throttle } from '../auth/login-throttle.ts'
import { passwordAttempt } from './attempts.ts'
import { notFound, unprocessable } from '../errors.ts'
import { closeResetLinks } from '../people/guards.ts'
import { PersonSummary, SessionView } from '../people/schemas.ts'
import { Instant, nowIso, Nullable, OneOf, Password, t } from '../schemas.ts'
import { hashPassword } from '../auth/passwords.ts'
import { endPushOfSessions } from '../push/subscriptions.ts'

export const Whoami = t.Object(
  {
    via: OneOf(['session', 'key', 'break_glass'] as const),
    person: t.Union([PersonSummary, t.Null()], { description: 'null for the break-glass token' }),
    key: t.Union([t.Object({ id: t.Integer(), label: t.String() }, { additionalProperties: false }), t.Null()]),
    capabilities: t.Array(OneOf(CAPABILITIES)),
    led_units: t.Object(
      {
        every_unit: t.Boolean({ description: 'An admin, owner or the break-glass token: acts for every unit' }),
        units: t.Array(t.Object({ unit_id: t.Integer(), slug: t.String(), title: Nullable(t.String()) }, { additionalProperties: false }), {
          description: 'The units you are a leader of',
        }),
      },
      { additionalProperties: false, description: 'Which units you lead: where your leader rights reach' },
    ),
    second_factor: t.Union(
      [
        t.Object(
          {
            enrolled: t.Boolean({ description: 'You have an authenticator app or a passkey' }),
            required: t.Boolean({ description: 'The setting security.second_factor asks you for one' }),
            due_at: t.Union([Instant, t.Null()], { description: 'Until when you may sign in without one' }),
            locked: t.Boolean({ description: 'Past that day: only your account page opens until you add one' }),
          },
          { additionalProperties: false },
        ),
        t.Null(),
      ],
      { description: 'Your standing with security.second_factor (a key: its owner’s); null for the break-glass token' },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        via: 'key',
        person: PersonSummary.examples[0],
        key: { id: 7, label: 'photo uploader' },
        capabilities: ['socialposts:read'],
        led_units: { every_unit: false, units: [{ unit_id: 1, slug: 'pack', title: 'Cubmaster' }] },
        second_factor: null,
      },
    ],
  },
)

export const whoami = (caller: Caller) => ({
  via: caller.via,
  person: caller.person && {
    id: caller.person.id,
    email: caller.person.email,
    name: caller.person.name,
    global_role: caller.person.global_role,
    units: caller.person.units,
  },
  key: caller.key,
  capabilities: [...caller.capabilities],
  led_units: ledUnitsView(caller),
  second_factor: caller.secondFactor,
})

export const PasswordChange = t.Object(
  { current_password: t.String({ maxLength: 200 }), new_password: Password },
  { additionalProperties: false, examples: [{ current_password: 'correct horse battery', new_password: 'a longer, fresher phrase' }] },
)
export const PasswordChanged = t.Object(
  {
    changed: t.Literal(true),
    other_sessions_ended: t.Integer({ description: 'How many of your other sessions ended' }),
    keys_active: t.Integer({
      description: 'How many of your API keys still work: revoke them (DELETE /api/admin/keys) if the account may have been taken',
    }),
  },
  { additionalProperties: false, examples: [{ changed: true, other_sessions_ended: 1, keys_active: 0 }] },
)

/**
 * Changes your password (422 when the current one is wrong, checked under the sign-in slow-down and logged, so a
 * stolen session or key cannot guess it); your other sessions and open reset links end.
 */
export async function changePassword(
  db: Db,
  throttle: Throttle,
  caller: Caller,
  address: string | null,
  input: typeof PasswordChange.static,
) {
  const me = caller.person!
  const from = { address, personId: me.id, email: me.email, what: 'Wrong current password when changing it' }
  if (!(await passwordAttempt(db, throttle, from, input.current_password)))
    throw unprocessable('current_password: is not your current password')
  const hash = await hashPassword(input.new_password)
  return write(db, async (trx) => {
    await trx.updateTable('people').set({ password_hash: hash }).where('id', '=', me.id).execute()
    // A reset link issued before would undo the change: it closes with it.
    await closeResetLinks(trx, me.id, nowIso())
    let others = trx.deleteFrom('sessions').where('person_id', '=', me.id)
    if (caller.sessionId) others = others.where('id', '!=', caller.sessionId)
    const endedIds = (await others.returning('id').execute()).map((r) => r.id)
    await endPushOfSessions(trx, endedIds)
    const ended = endedIds.length
    await record(trx, caller.actor, 'account.password', 'Changed their password; other sessions ended')
    const live = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('person_id', '=', me.id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso())]))
      .executeTakeFirstOrThrow()
    // A voluntary change keeps the keys (unlike a reset): the answer says how many, so the page can offer to revoke them.
    return { changed: true as const, other_sessions_ended: ended, keys_active: Number(live.n) }
  })
}

export const SessionList = t.Object(
  { sessions: t.Array(t.Object({ ...SessionView.properties, current: t.Boolean() }, { additionalProperties: false })) },
  {
    additionalProperties: false,
    examples: [
      {
        sessions: [
          {
            id: 12,
            created_at: '2026-11-20T19:02:11.000Z',
            last_seen_at: '2026-11-23T07:15:40.000Z',
            address: '192.168.1.20',
            user_agent: 'Mozilla/5.0 (iPhone)',
            current: true,
          },
        ],
      },
    ],
  },
)

export async function listSessions(db: Executor, caller: Caller) {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'address', 'user_agent'])
    .where('person_id', '=', caller.person!.id)
    .where('expires_at', '>', nowIso())
    .orderBy('last_seen_at', 'desc')
    .execute()
  return { sessions: rows.map((s) => ({ ...s, current: s.id === caller.sessionId })) }
}

export const SessionEnded = t.Object(
  { id: t.Integer(), ended: t.Literal(true) },
  { additionalProperties: false, examples: [{ id: 12, ended: true }] },
)

/** Ends one of your sessions; someone else's is 404. */
export function endSession(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const gone = await trx
      .deleteFrom('sessions')
      .where('id', '=', id)
      .where('person_id', '=', caller.person!.id)
      .returning('address')
      .executeTakeFirst()
    if (!gone) throw notFound('No such session of yours')
    await endPushOfSessions(trx, [id])
    await record(trx, caller.actor, 'account.session_end', `Signed out the session from ${gone.address ?? 'an unknown address'}`)
    return { id, ended: true as const }
  })
}
