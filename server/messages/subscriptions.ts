// Unsubscribing, per address: each address mailed a message or digest gets one token for its one-click unsubscribe
// link (RFC 8058); using it stops leaders' non-urgent messages and the digest to that address, and the family page
// turns them back on.
import type { Caller } from '../auth/credential.ts'
import { randomToken } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import { notFound } from '../errors.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { Email, nowIso, t } from '../schemas.ts'
import { familyAddresses, unsubscribedOf } from './audience.ts'

export const Unsubscribed = t.Object(
  {
    email: t.String({ description: 'The address that gets no more non-urgent mail from the site' }),
    detail: t.String({ description: 'What happened, in words to show' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        email: 'parent@example.org',
        detail:
          'parent@example.org gets no more messages or weekly digests from this site, except urgent ones. The family page turns them back on.',
      },
    ],
  },
)

export const FamilyMail = t.Object(
  {
    addresses: t.Array(
      t.Object(
        {
          email: t.String(),
          subscribed: t.Boolean({ description: "Gets leaders' messages and the weekly digest (urgent messages always come)" }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ addresses: [{ email: 'parent@example.org', subscribed: true }] }] },
)

export const FamilyMailChange = t.Object(
  { email: Email, subscribed: t.Boolean({ description: 'false to stop non-urgent mail to the address, true to have it again' }) },
  { additionalProperties: false, examples: [{ email: 'parent@example.org', subscribed: true }] },
)

/** The unsubscribe token of each address, made the first time an address is mailed (inside the write that mails it). */
export async function unsubscribeTokens(trx: Executor, emails: string[]): Promise<Map<string, string>> {
  if (!emails.length) return new Map()
  const now = nowIso()
  await trx
    .insertInto('mail_subscriptions')
    .values(emails.map((email) => ({ email, token: randomToken(), created_at: now })))
    .onConflict((oc) => oc.column('email').doNothing())
    .execute()
  const rows = await trx.selectFrom('mail_subscriptions').select(['email', 'token']).where('email', 'in', emails).execute()
  return new Map(rows.map((r) => [r.email, r.token]))
}

/** The one-click unsubscribe: no credential, the token is the proof; a second click changes nothing. 404 for an unknown token. */
export async function unsubscribe(db: Db, token: string) {
  return write(db, async (trx) => {
    const row = await trx
      .selectFrom('mail_subscriptions')
      .select(['email', 'unsubscribed_at'])
      .where('token', '=', token)
      .executeTakeFirst()
    if (!row) throw notFound('This unsubscribe link is not known here (it may be from another site)')
    if (row.unsubscribed_at) unchanged(trx)
    else {
      await trx.updateTable('mail_subscriptions').set({ unsubscribed_at: nowIso() }).where('token', '=', token).execute()
      await record(
        trx,
        `anonymous (unsubscribe link for ${row.email})`,
        'messages.unsubscribe',
        `${row.email} unsubscribed from the site's mail`,
      )
    }
    return {
      email: row.email,
      detail: `${row.email} gets no more messages or weekly digests from this site, except urgent ones. The family page turns them back on.`,
    }
  })
}

/** The addresses of the caller's own households (and the caller's own), with whether each gets non-urgent mail. */
export async function familyMail(db: Executor, caller: Caller) {
  const addresses = await familyAddressesOf(db, caller)
  const off = new Set(await unsubscribedOf(db, addresses))
  return { addresses: addresses.map((email) => ({ email, subscribed: !off.has(email) })) }
}

/** A parent turns mail to one of their household's addresses off or back on: 404 for any other address. */
export async function setFamilyMail(db: Db, caller: Caller, input: typeof FamilyMailChange.static) {
  const email = input.email.trim().toLowerCase()
  if (!(await familyAddressesOf(db, caller)).includes(email)) throw notFound(`${email} is not an address of your household`)
  await write(db, async (trx) => {
    await unsubscribeTokens(trx, [email])
    const changed = await trx
      .updateTable('mail_subscriptions')
      .set({ unsubscribed_at: input.subscribed ? null : nowIso() })
      .where('email', '=', email)
      .where('unsubscribed_at', input.subscribed ? 'is not' : 'is', null)
      .executeTakeFirst()
    if (!Number(changed.numUpdatedRows)) return unchanged(trx)
    await record(
      trx,
      caller.actor,
      'messages.subscription',
      `${input.subscribed ? 'Turned back on' : 'Turned off'} the site's mail to ${email}`,
    )
  })
  return familyMail(db, caller)
}

async function familyAddressesOf(db: Executor, caller: Caller): Promise<string[]> {
  const households = await familyAddresses(db, await ownHouseholdIds(db, caller))
  return [...new Set([caller.person!.email.toLowerCase(), ...households.flatMap((h) => h.emails)])].sort()
}
