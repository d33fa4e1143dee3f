// Passkeys (WebAuthn, through @simplewebauthn/server): registering one for your account, and checking one at sign-in,
// as a second factor after the password or on its own. The relying party is the site's own address
// (PUBLIC_BASE_URL): its host name is the RP ID, its origin the only one accepted.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Executor } from '../db/database.ts'
import type { SecondFactor } from './tables.ts'
import type { Env } from '../env.ts'
import { nowIso, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'

const CHALLENGE_MS = 5 * 60_000
/** The library is loaded when a passkey is first registered or used: it and its crypto hold about 25 MB. */
const webauthn = () => import('@simplewebauthn/server')
/** EdDSA, ES256 and RS256: what phones and security keys make (Bun would also offer ML-DSA, which few verify yet). */
const ALGORITHMS = [-8, -7, -257]

const B64 = t.String({ maxLength: 16_384, pattern: '^[A-Za-z0-9_-]*$' })

/** What the browser's navigator.credentials.create() gives, as @simplewebauthn/browser sends it. */
export const RegistrationResponse = t.Object(
  {
    id: B64,
    rawId: B64,
    type: t.Literal('public-key'),
    response: t.Object(
      { clientDataJSON: B64, attestationObject: B64, transports: t.Optional(t.Array(t.String({ maxLength: 20 }), { maxItems: 10 })) },
      { additionalProperties: true },
    ),
    authenticatorAttachment: t.Optional(t.String({ maxLength: 20 })),
    clientExtensionResults: t.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true, description: 'What startRegistration() of @simplewebauthn/browser returns' },
)

/** What navigator.credentials.get() gives, as @simplewebauthn/browser sends it. */
export const AuthenticationResponse = t.Object(
  {
    id: B64,
    rawId: B64,
    type: t.Literal('public-key'),
    response: t.Object(
      { clientDataJSON: B64, authenticatorData: B64, signature: B64, userHandle: t.Optional(B64) },
      { additionalProperties: true },
    ),
    authenticatorAttachment: t.Optional(t.String({ maxLength: 20 })),
    clientExtensionResults: t.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true, description: 'What startAuthentication() of @simplewebauthn/browser returns' },
)

/** The relying party: the site's host name and origin. */
export function relyingParty(env: Readonly<Env>) {
  const url = new URL(env.publicBaseUrl)
  return { rpID: url.hostname, origin: url.origin }
}

/** Options for navigator.credentials.create(), excluding the person's passkeys; the challenge is kept five minutes. */
export async function registrationOptions(db: Executor, env: Readonly<Env>, person: { id: number; email: string; name: string | null }) {
  const existing = await passkeysOf(db, person.id)
  const { generateRegistrationOptions } = await webauthn()
  const options = await generateRegistrationOptions({
    rpName: await getSetting(db, 'site.name'),
    rpID: relyingParty(env).rpID,
    userName: person.email,
    userDisplayName: person.name ?? person.email,
    userID: new TextEncoder().encode(String(person.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id!, transports: JSON.parse(p.transports ?? '[]') })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  })
  await keepChallenge(db, person.id, options.challenge)
  return options
}

/** Keeps a person's open passkey challenge for five minutes, in place of any earlier one. */
export async function keepChallenge(db: Executor, personId: number, challenge: string): Promise<void> {
  const row = { person_id: personId, challenge, expires_at: new Date(Date.now() + CHALLENGE_MS).toISOString() }
  await db
    .insertInto('passkey_challenges')
    .values(row)
    .onConflict((oc) => oc.column('person_id').doUpdateSet(row))
    .execute()
}

/**
 * Checks a new passkey against the person's open challenge (used up either way): its credential, or null when the
 * response does not verify.
 */
export async function verifiedRegistration(trx: Executor, env: Readonly<Env>, personId: number, response: RegistrationResponseJSON) {
  const pending = await trx.selectFrom('passkey_challenges').selectAll().where('person_id', '=', personId).executeTakeFirst()
  await trx.deleteFrom('passkey_challenges').where('person_id', '=', personId).execute()
  if (!pending || Date.parse(pending.expires_at) <= Date.now()) return null
  const { rpID, origin } = relyingParty(env)
  try {
    const { verifyRegistrationResponse } = await webauthn()
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: pending.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    })
    return verified && registrationInfo ? registrationInfo.credential : null
  } catch {
    return null
  }
}

/** The person's passkeys. */
export function passkeysOf(db: Executor, personId: number) {
  return db.selectFrom('second_factors').selectAll().where('person_id', '=', personId).where('kind', '=', 'passkey').execute()
}

/** Options for navigator.credentials.get(): the person's passkeys, or any passkey of this site when `personId` is null. */
export async function authenticationOptions(db: Executor, env: Readonly<Env>, personId: number | null) {
  const passkeys = personId === null ? [] : await passkeysOf(db, personId)
  const { generateAuthenticationOptions } = await webauthn()
  return generateAuthenticationOptions({
    rpID: relyingParty(env).rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id!, transports: JSON.parse(p.transports ?? '[]') })),
    // Without a password the passkey is the whole sign-in: the device must check who holds it.
    userVerification: personId === null ? 'required' : 'preferred',
  })
}

/**
 * Checks a passkey's answer to `challenge`: the passkey (of `personId`, or of anyone when null) that signed it, its
 * counter moved on and last use noted; null when it does not verify.
 */
export async function usePasskey(
  trx: Executor,
  env: Readonly<Env>,
  challenge: string,
  response: AuthenticationResponseJSON,
  personId: number | null,
): Promise<SecondFactor | null> {
  let query = trx.selectFrom('second_factors').selectAll().where('kind', '=', 'passkey').where('credential_id', '=', response.id)
  if (personId !== null) query = query.where('person_id', '=', personId)
  const passkey = await query.executeTakeFirst()
  if (!passkey) return null
  const { rpID, origin } = relyingParty(env)
  try {
    const { verifyAuthenticationResponse } = await webauthn()
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: personId === null,
      credential: {
        id: passkey.credential_id!,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key!, 'base64url')),
        counter: passkey.counter ?? 0,
        transports: JSON.parse(passkey.transports ?? '[]'),
      },
    })
    if (!verified) return null
    await trx
      .updateTable('second_factors')
      .set({ counter: authenticationInfo.newCounter, last_used_at: nowIso() })
      .where('id', '=', passkey.id)
      .execute()
    return passkey
  } catch {
    return null
  }
}

/** A verified registration's credential as stored. */
export const storedCredential = (credential: {
  id: string
  publicKey: Uint8Array<ArrayBuffer>
  counter: number
  transports?: string[]
}) => ({
  credential_id: credential.id,
  public_key: Buffer.from(credential.publicKey).toString('base64url'),
  counter: credential.counter,
  transports: JSON.stringify(credential.transports ?? []),
})
