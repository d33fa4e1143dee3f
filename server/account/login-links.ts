// Signing in with a link by mail: asked for on the sign-in page (valid 20 minutes) or carried by a roster welcome
// (7 days). It goes to an account's address, or to an active household's address with no account yet, whose first
// use makes a family account linked to that household. Used once; a second factor still applies after it.
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, type Trx, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { forbidden, gone } from '../errors.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { openLink, useLink } from '../people/one-time-links.ts'
import { normaliseEmail } from '../people/queries.ts'
import { Email, nowIso, t } from '../schemas.ts'
import { askSecondFactor, confirmedFactorKinds } from './sign-in.ts'
import { syncAsked } from '../auth/second-factor-policy.ts'
import { getSetting } from '../settings/registry.ts'
import { instantWords } from '../instant-words.ts'
import { type From, openSession } from './sign-in.ts'
import type { LoginLink } from './tables.ts'
import { hashPassword } from '../auth/passwords.ts'

export const ASKED_VALID_MINUTES = 20
export const WELCOME_VALID_DAYS = 7

export const LoginLinkRequest = t.Object({ email: Email }, { additionalProperties: false, examples: [{ email: 'robin.hale@example.org' }] })

/** Whom a link for this address signs in: an active account, else an active household's address; null for nobody. */
export async function linkTarget(db: Executor, email: string): Promise<{ person_id: number | null; household_id: number | null } | null> {
  const person = await db.selectFrom('people').select(['id', 'disabled_at']).where('email', '=', email).executeTakeFirst()
  // A disabled person cannot sign in, so nothing is mailed; the answer to the ask is the same.
  if (person) return person.disabled_at ? null : { person_id: person.id, household_id: null }
  const household = await activeHouseholdWith(db, email)
  return household ? { person_id: null, household_id: household.id } : null
}

/** The first active household with `email` as either parent's address (roster addresses are kept as typed). */
function activeHouseholdWith(db: Executor, email: string) {
  return db
    .selectFrom('households')
    .select(['id', 'parent_name'])
    .where('active', '=', 1)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', [eb.fn('trim', ['email'])]), '=', email),
        eb(eb.fn('lower', [eb.fn('trim', ['second_email'])]), '=', email),
      ]),
    )
    .orderBy('id')
    .executeTakeFirst()
}

/** Stores a new link for `token` to `email`; an `asked` one first closes the earlier asked links of that address. */
export async function newLoginLink(
  trx: Trx,
  token: string,
  email: string,
  target: { person_id: number | null; household_id: number | null },
  kind: LoginLink['kind'],
) {
  const now = nowIso()
  if (kind === 'asked')
    await trx
      .updateTable('login_links')
      .set({ revoked_at: now })
      .where('email', '=', email)
      .where('kind', '=', 'asked')
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute()
  const validMs = kind === 'asked' ? ASKED_VALID_MINUTES * 60_000 : WELCOME_VALID_DAYS * 86_400_000
  return trx
    .insertInto('login_links')
    .values({
      token_hash: sha256(token),
      email,
      ...target,
      kind,
      created_at: now,
      expires_at: new Date(Date.parse(now) + validMs).toISOString(),
      used_at: null,
      revoked_at: null,
    })
    .returning(['id', 'expires_at'])
    .executeTakeFirstOrThrow()
}

export const loginLinkUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/login/link/${token}`

export const until = async (db: Executor, expiresAt: string) => instantWords(expiresAt, await getSetting(db, 'site.timezone'))

async function queueLoginLinkMail(trx: Executor, to: string, url: string, expiresAt: string) {
  const site = await getSetting(trx, 'site.name')
  const letter = await compose(trx, {
    subject: `Your sign-in link for ${site}`,
    paragraphs: [`Someone, probably you, asked to sign in to ${site} as ${to}.`],
    link: { label: 'Sign in', url },
    after: [`The link works once, until ${await until(trx, expiresAt)}.`, 'If you did not ask for it, ignore this mail: nothing changes.'],
    why: `You get this mail because a sign-in link for ${to} was asked for on ${site}.`,
  })
  await queueMail(trx, [{ kind: 'login_link', to, ...letter, sensitive: true, urgent: true, giveUpAt: expiresAt }])
}

/**
 * "Email me a sign-in link": mails a link valid 20 minutes to an account's address or an active household's, and
 * does nothing for any other address; the caller answers the same either way.
 */
export async function askForLoginLink(
  db: Db,
  input: typeof LoginLinkRequest.static,
  from: string | null,
  publicBaseUrl: string,
  mail: MailSender,
) {
  const email = normaliseEmail(input.email)
  const target = await linkTarget(db, email)
  if (!target) return
  const token = randomToken()
  await write(db, async (trx) => {
    const row = await newLoginLink(trx, token, email, target, 'asked')
    await queueLoginLinkMail(trx, email, loginLinkUrl(publicBaseUrl, token), row.expires_at)
    // Whoever asked is not known to be the person: the entry names the address it came from, not them.
    await record(
      trx,
      'anonymous',
      'login.link',
      `A sign-in link for ${email} was asked for on the sign-in page, from ${from ?? 'an unknown address'}`,
    )
  })
  mail.wake()
}

const REFUSED_HOUSEHOLD =
  'This link was mailed to a household that is no longer on the roster; ask a leader of your unit, or ask for a new link'

/**
 * Who a working link signs in, checked now as when it was mailed: its account (403 when disabled), or for a roster
 * address the account that has that address by now, else the household to make one for (410 once the household is
 * gone, inactive or has another address).
 */
async function whoseLink(db: Executor, link: LoginLink) {
  if (link.person_id === null) {
    const household = link.household_id === null ? null : await activeHouseholdWith(db, link.email)
    if (!household || household.id !== link.household_id) throw gone(REFUSED_HOUSEHOLD)
  }
  const person = await db
    .selectFrom('people')
    .select(['id', 'email', 'disabled_at'])
    .$if(link.person_id !== null, (q) => q.where('id', '=', link.person_id!))
    .$if(link.person_id === null, (q) => q.where('email', '=', link.email))
    .executeTakeFirst()
  if (link.person_id !== null && person?.email !== link.email) throw gone('This account has another address now; ask for a new link')
  if (person?.disabled_at) throw forbidden('This account is disabled; ask a leader of your unit to enable it again')
  return person ? { person: { id: person.id, email: person.email }, household: null } : { person: null, household: link.household_id! }
}

/** A family account for a roster address: a member of its scouts' units, linked to that household alone. */
async function familyAccountFor(trx: Trx, email: string, householdId: number) {
  const person = await trx
    .insertInto('people')
    .values({
      email,
      name: null,
      // Nobody knows this password: the family signs in with links, or sets one with "Forgot your password?".
      password_hash: await hashPassword(randomToken()),
      global_role: null,
      created_at: nowIso(),
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow()
  const units = await trx.selectFrom('scouts').select('unit_id').distinct().where('household_id', '=', householdId).execute()
  for (const { unit_id } of units)
    await trx.insertInto('memberships').values({ person_id: person.id, unit_id, role: 'member', title: null }).execute()
  await trx.insertInto('household_people').values({ household_id: householdId, person_id: person.id }).execute()
  await syncAsked(trx, person.id)
  const household = await trx.selectFrom('households').select('parent_name').where('id', '=', householdId).executeTakeFirstOrThrow()
  await record(trx, email, 'people.join_link', `Made a family account with a sign-in link mailed to the roster address ${email}`)
  await record(
    trx,
    email,
    'roster.household_people',
    `${household.parent_name}'s household: linked to ${email}, who signed in with a mailed link`,
  )
  return person
}

/**
 * Uses a sign-in link once (404 unknown, 410 used, expired, closed or refused now): a session, or for a person with
 * a second factor a ticket for it (the link is used up either way). Every other open link of the address closes.
 */
export async function useLoginLink(db: Db, env: Readonly<Env>, token: string, from: From) {
  const link = await openLink(db, 'login_links', token, 'sign-in link')
  const who = await whoseLink(db, link)
  const signedIn = await write(db, async (trx) => {
    await useLink(trx, 'login_links', link.id, 'sign-in link')
    await trx
      .updateTable('login_links')
      .set({ revoked_at: nowIso() })
      .where('email', '=', link.email)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute()
    const person = who.person ?? (await familyAccountFor(trx, link.email, who.household!))
    const factors = await confirmedFactorKinds(trx, person.id)
    if (factors.length) {
      await record(
        trx,
        person.email,
        'login.link',
        `Used a mailed sign-in link from ${from.address ?? 'unknown'}; the second factor is asked next`,
      )
      return { person, factors, token: null }
    }
    return { person, factors, token: await openSession(trx, person, from, ' with a mailed link') }
  })
  if (signedIn.token) return { kind: 'session' as const, token: signedIn.token, person: signedIn.person }
  return { kind: 'second_factor' as const, second_factor: await askSecondFactor(db, env, signedIn.person.id, signedIn.factors) }
}
