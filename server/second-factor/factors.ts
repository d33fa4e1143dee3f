// Your second factors, from your account page: an authenticator app (added by confirming a code from it), passkeys,
// recovery codes; and an owner removing someone's when they lost their phone. A person's first factor brings ten
// recovery codes, shown once; removing the last one removes them too.
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import { codeAttempt, passwordAttempt, type Throttles } from '../account/attempts.ts'
import { assertConfirmed } from '../account/confirm.ts'
import { queueSecurityNotice } from '../account/security-notice.ts'
import type { MailSender } from '../mail/sender.ts'
import type { Throttle } from '../auth/login-throttle.ts'
import type { Env } from '../env.ts'
import { conflict, notFound, unprocessable } from '../errors.ts'
import { Instant, Line, Nullable, nowIso, OneTime, t } from '../schemas.ts'
import { RegistrationResponse, registrationOptions, storedCredential, verifiedRegistration } from './passkeys.ts'
import { secondFactorStatus } from '../auth/second-factor-policy.ts'
import { confirmedFactors, useCode } from './codes.ts'
import { recoveryCodesLeft, replaceRecoveryCodes } from './recovery-codes.ts'
import { newTotpSecret, totpFor, useTotpCode } from './totp.ts'

const me = (caller: Caller) => caller.person!

export const Code = t.Object(
  { code: Line(20, { minLength: 1, description: 'Six digits from your authenticator app, or a recovery code' }) },
  { additionalProperties: false, examples: [{ code: '492039' }] },
)
export const PasswordCheck = t.Object(
  { password: t.String({ maxLength: 200, description: 'Your password, to show it is you' }) },
  { additionalProperties: false, examples: [{ password: 'correct horse battery' }] },
)

const RecoveryCodes = OneTime(
  t.Array(t.String(), { description: 'Ten one-time codes, shown this once: each signs you in once in place of your phone or passkey' }),
)

const FactorView = t.Object(
  { id: t.Integer(), name: t.String(), created_at: Instant, last_used_at: Nullable(Instant) },
  { additionalProperties: false },
)

export const SecondFactorOverview = t.Object(
  {
    enrolled: t.Boolean({ description: 'You have an authenticator app or a passkey' }),
    required: t.Boolean({ description: 'The setting security.second_factor asks you for one' }),
    due_at: t.Union([Instant, t.Null()], { description: 'Until when you may sign in without one (null when not asked, or enrolled)' }),
    locked: t.Boolean({ description: 'Past that day: until you add one, only your account page opens' }),
    totp: t.Union([FactorView, t.Null()], { description: 'Your authenticator app' }),
    passkeys: t.Array(FactorView),
    recovery_codes_left: t.Integer({ minimum: 0 }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        enrolled: true,
        required: true,
        due_at: null,
        locked: false,
        totp: { id: 3, name: 'Authenticator app', created_at: '2026-11-20T19:02:11.000Z', last_used_at: '2026-11-23T07:15:40.000Z' },
        passkeys: [{ id: 4, name: 'iPhone', created_at: '2026-11-21T08:00:00.000Z', last_used_at: null }],
        recovery_codes_left: 9,
      },
    ],
  },
)

const view = (f: { id: number; name: string; created_at: string; last_used_at: string | null }) => ({
  id: f.id,
  name: f.name,
  created_at: f.created_at,
  last_used_at: f.last_used_at,
})

export async function secondFactorOverview(db: Executor, caller: Caller) {
  const factors = await confirmedFactors(db, me(caller).id)
  const totp = factors.find((f) => f.kind === 'totp')
  return {
    ...(await secondFactorStatus(db, me(caller))),
    totp: totp ? view(totp) : null,
    passkeys: factors.filter((f) => f.kind === 'passkey').map(view),
    recovery_codes_left: await recoveryCodesLeft(db, me(caller).id),
  }
}

/** Ten recovery codes when this is the person's first factor (none before it), else none: their codes stay. */
async function codesForFirstFactor(trx: Executor, personId: number, newFactorId: number): Promise<string[]> {
  const others = (await confirmedFactors(trx, personId)).filter((f) => f.id !== newFactorId)
  return others.length ? [] : replaceRecoveryCodes(trx, personId)
}

/** After a removal: with no factor left, the recovery codes go too. */
async function dropCodesWhenNoneLeft(trx: Executor, personId: number) {
  if (!(await confirmedFactors(trx, personId)).length) await trx.deleteFrom('recovery_codes').where('person_id', '=', personId).execute()
}

/** 422 unless `password` is the caller's (checked under the sign-in slow-down, a wrong one logged). */
async function assertPassword(db: Db, throttle: Throttle, caller: Caller, address: string | null, password: string, what: string) {
  const from = { address, personId: me(caller).id, email: me(caller).email, what: `Wrong password ${what}` }
  if (!(await passwordAttempt(db, throttle, from, password))) throw unprocessable('password: is not your password')
}

export const TotpStarted = t.Object(
  {
    secret: OneTime(t.String({ description: 'Base32, for typing into the app by hand' })),
    otpauth_url: OneTime(t.String({ description: 'otpauth://totp/…: open it on the phone, or show it as a QR code' })),
  },
  {
    additionalProperties: false,
    examples: [{ secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Pack%20123:robin%40example.org?secret=JBSW…' }],
  },
)

/** A new authenticator app secret, waiting for its first code (a new start replaces one still waiting); 409 with an app already. */
export async function startTotp(db: Db, caller: Caller) {
  const person = me(caller)
  await assertConfirmed(db, caller)
  const secret = newTotpSecret()
  await write(db, async (trx) => {
    const confirmed = (await confirmedFactors(trx, person.id)).some((f) => f.kind === 'totp')
    if (confirmed) throw conflict('You have an authenticator app already: remove it first to set up another')
    await trx.deleteFrom('second_factors').where('person_id', '=', person.id).where('kind', '=', 'totp').execute()
    await trx
      .insertInto('second_factors')
      .values({ person_id: person.id, kind: 'totp', name: 'Authenticator app', created_at: nowIso(), totp_secret: secret })
      .execute()
    await record(trx, caller.actor, 'account.totp_start', 'Started adding an authenticator app')
  })
  return { secret, otpauth_url: (await totpFor(db, person.email, secret)).toString() }
}

export const TotpConfirmed = t.Object(
  { recovery_codes: RecoveryCodes },
  { additionalProperties: false, examples: [{ recovery_codes: ['7hq2m-x4k9p', 'b3xnc-9f2qk'] }] },
)

/** Confirms the app with a code from it: it counts from now; a first factor brings ten recovery codes (shown once). */
export async function confirmTotp(db: Db, mail: MailSender | null, caller: Caller, input: typeof Code.static) {
  const person = me(caller)
  const confirmed = await write(db, async (trx) => {
    const pending = await trx
      .selectFrom('second_factors')
      .selectAll()
      .where('person_id', '=', person.id)
      .where('kind', '=', 'totp')
      .where('confirmed_at', 'is', null)
      .executeTakeFirst()
    if (!pending) throw conflict('No authenticator app is waiting to be confirmed: start again')
    if (!(await useTotpCode(trx, pending, input.code)))
      throw unprocessable('code: is not the code your app shows now; check the phone’s clock')
    // Confirming is not a sign-in: the app counts as not used yet.
    await trx.updateTable('second_factors').set({ confirmed_at: nowIso(), last_used_at: null }).where('id', '=', pending.id).execute()
    const recovery_codes = await codesForFirstFactor(trx, person.id, pending.id)
    await record(
      trx,
      caller.actor,
      'account.totp_add',
      `Added an authenticator app${recovery_codes.length ? ' and got recovery codes' : ''}`,
    )
    await queueSecurityNotice(trx, mail, person.email, 'An authenticator app was added as a second factor')
    return { recovery_codes }
  })
  mail?.wake()
  return confirmed
}

export const Removed = t.Object({ removed: t.Literal(true) }, { additionalProperties: false, examples: [{ removed: true }] })

/**
 * Removes your authenticator app, given a code from it or a recovery code (422 otherwise, checked under the
 * slow-downs of a sign-in's second step); 404 without one.
 */
export async function removeTotp(
  db: Db,
  mail: MailSender | null,
  throttles: Throttles,
  caller: Caller,
  address: string | null,
  input: typeof Code.static,
) {
  const person = me(caller)
  await assertConfirmed(db, caller)
  if (!(await confirmedFactors(db, person.id)).some((f) => f.kind === 'totp')) throw notFound('You have no authenticator app')
  const removed = await codeAttempt(
    db,
    throttles,
    { address, email: person.email, what: 'Wrong code to remove the authenticator app' },
    () =>
      write(db, async (trx) => {
        const app = (await confirmedFactors(trx, person.id)).find((f) => f.kind === 'totp')
        if (!app || !(await useCode(trx, person.id, input.code))) {
          unchanged(trx)
          return null
        }
        await trx.deleteFrom('second_factors').where('id', '=', app.id).execute()
        await dropCodesWhenNoneLeft(trx, person.id)
        await record(trx, caller.actor, 'account.totp_remove', 'Removed their authenticator app')
        await queueSecurityNotice(trx, mail, person.email, 'The authenticator app was removed')
        return { removed: true as const }
      }),
  )
  if (!removed) throw unprocessable('code: is not a current code from your app or one of your recovery codes')
  mail?.wake()
  return removed
}

/** Options for the browser to make a passkey for your account. */
export async function passkeyOptions(db: Db, env: Readonly<Env>, caller: Caller) {
  await assertConfirmed(db, caller)
  return registrationOptions(db, env, me(caller))
}

export const NewPasskey = t.Object(
  {
    name: Line(60, { minLength: 1, description: 'What you call the device: "iPhone", "YubiKey"' }),
    response: RegistrationResponse,
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'iPhone',
        response: {
          id: 'p6s0bVkU9x1E3q',
          rawId: 'p6s0bVkU9x1E3q',
          type: 'public-key',
          response: {
            clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
            attestationObject: 'o2NmbXRkbm9uZQ',
            transports: ['internal'],
          },
          clientExtensionResults: {},
        },
      },
    ],
  },
)

export const PasskeyAdded = t.Object(
  { passkey: FactorView, recovery_codes: RecoveryCodes },
  {
    additionalProperties: false,
    examples: [{ passkey: { id: 4, name: 'iPhone', created_at: '2026-11-21T08:00:00.000Z', last_used_at: null }, recovery_codes: [] }],
  },
)

/** Adds a passkey the browser made for the open challenge (422 when it does not verify). */
export async function addPasskey(db: Db, env: Readonly<Env>, mail: MailSender | null, caller: Caller, input: typeof NewPasskey.static) {
  const person = me(caller)
  await assertConfirmed(db, caller)
  const added = await write(db, async (trx) => {
    const credential = await verifiedRegistration(trx, env, person.id, input.response as RegistrationResponseJSON)
    if (!credential) throw unprocessable('response: the passkey could not be checked; try adding it again')
    const now = nowIso()
    const row = await trx
      .insertInto('second_factors')
      .values({
        person_id: person.id,
        kind: 'passkey',
        name: input.name.trim(),
        created_at: now,
        confirmed_at: now,
        ...storedCredential(credential),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const recovery_codes = await codesForFirstFactor(trx, person.id, row.id)
    await record(
      trx,
      caller.actor,
      'account.passkey_add',
      `Added the passkey “${row.name}”${recovery_codes.length ? ' and got recovery codes' : ''}`,
    )
    await queueSecurityNotice(trx, mail, person.email, `A passkey “${row.name}” was added as a second factor`)
    return { passkey: view(row), recovery_codes }
  })
  mail?.wake()
  return added
}

/** Removes one of your passkeys, given your password (422 otherwise); someone else's or none is 404. */
export async function removePasskey(
  db: Db,
  mail: MailSender | null,
  throttle: Throttle,
  caller: Caller,
  address: string | null,
  id: number,
  input: typeof PasswordCheck.static,
) {
  const person = me(caller)
  await assertPassword(db, throttle, caller, address, input.password, 'to remove a passkey')
  const removed = await write(db, async (trx) => {
    const gone = await trx
      .deleteFrom('second_factors')
      .where('id', '=', id)
      .where('person_id', '=', person.id)
      .where('kind', '=', 'passkey')
      .returning('name')
      .executeTakeFirst()
    if (!gone) throw notFound('No such passkey of yours')
    await dropCodesWhenNoneLeft(trx, person.id)
    await record(trx, caller.actor, 'account.passkey_remove', `Removed the passkey “${gone.name}”`)
    await queueSecurityNotice(trx, mail, person.email, `The passkey “${gone.name}” was removed`)
    return { removed: true as const }
  })
  mail?.wake()
  return removed
}

export const NewRecoveryCodes = t.Object(
  { recovery_codes: RecoveryCodes },
  { additionalProperties: false, examples: [{ recovery_codes: ['7hq2m-x4k9p', 'b3xnc-9f2qk'] }] },
)

/** Ten new recovery codes in place of your old ones, given your password; 409 without a second factor. */
export async function newRecoveryCodes(
  db: Db,
  mail: MailSender | null,
  throttle: Throttle,
  caller: Caller,
  address: string | null,
  input: typeof PasswordCheck.static,
) {
  const person = me(caller)
  await assertConfirmed(db, caller)
  await assertPassword(db, throttle, caller, address, input.password, 'for new recovery codes')
  const renewed = await write(db, async (trx) => {
    if (!(await confirmedFactors(trx, person.id)).length) throw conflict('Add an authenticator app or a passkey first')
    const recovery_codes = await replaceRecoveryCodes(trx, person.id)
    await record(trx, caller.actor, 'account.recovery_codes', 'Made new recovery codes; the old ones stopped working')
    await queueSecurityNotice(trx, mail, person.email, 'New recovery codes were made (the old ones stopped working)')
    return { recovery_codes }
  })
  mail?.wake()
  return renewed
}

export const FactorsRemoved = t.Object(
  { id: t.Integer(), email: t.String(), removed: t.Integer({ description: 'How many factors were removed' }) },
  { additionalProperties: false, examples: [{ id: 14, email: 'robin.hale@example.org', removed: 2 }] },
)

/**
 * Removes every second factor of a person and their recovery codes (a lost phone): for `people:manage` only, logged.
 * A reset link leaves them in place; this is the one way to take them away from someone.
 */
export async function removeFactorsOf(db: Db, mail: MailSender | null, caller: Caller, personId: number) {
  const result = await write(db, async (trx) => {
    const person = await trx.selectFrom('people').select(['id', 'email']).where('id', '=', personId).executeTakeFirst()
    if (!person) throw notFound('No such person')
    const removed = await trx.deleteFrom('second_factors').where('person_id', '=', personId).executeTakeFirst()
    await trx.deleteFrom('recovery_codes').where('person_id', '=', personId).execute()
    await trx.deleteFrom('passkey_challenges').where('person_id', '=', personId).execute()
    await record(
      trx,
      caller.actor,
      'people.second_factor_remove',
      `Removed the second factors of ${person.email}; they add a new one at their next sign-in`,
    )
    await queueSecurityNotice(trx, mail, person.email, `Every second factor was removed by ${caller.actor}`)
    return { id: personId, email: person.email, removed: Number(removed.numDeletedRows) }
  })
  mail?.wake()
  return result
}
