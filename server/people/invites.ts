// Invites: a one-time link for an email with the roles it grants (valid 14 days, mailed when asked), taking one
// back, and accepting one, which creates the account and signs the person in.
import type { Caller } from '../auth/credential.ts'
import { type Client, createSession } from '../auth/sessions.ts'
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { conflict, notFound, unprocessable } from '../errors.ts'
import { Email, Instant, Line, nowIso, Nullable, OneOf, OneTime, Password, t } from '../schemas.ts'
import { assertKeepsHousehold } from '../roster/commands.ts'
import type { Executor } from '../db/database.ts'
import { createAccount } from './accounts.ts'
import { hashPassword } from '../auth/passwords.ts'
import { assertMayGrant, assertMayInvite, rolesInWords, type UnitGrant } from './grants.ts'
import { assertIssuerStillMay, issuedBy } from './link-issuers.ts'
import { assertMayMailLink, queueInviteMail } from './link-mails.ts'
import type { MailSender } from '../mail/sender.ts'
import { openLink, useLink } from './one-time-links.ts'
import { normaliseEmail } from './queries.ts'
import { GlobalRoleSchema, UnitGrantSchema } from './schemas.ts'

const INVITE_DAYS = 14

export const NewInvite = t.Object(
  {
    email: Email,
    global_role: t.Optional(GlobalRoleSchema),
    units: t.Optional(t.Array(UnitGrantSchema, { maxItems: 20, description: 'Unit roles to grant' })),
    send_email: t.Optional(
      t.Boolean({ description: 'Also mail the link to the person (409 while mail is not set up); without it nothing is mailed' }),
    ),
    household_id: t.Optional(
      t.Integer({
        minimum: 1,
        description:
          'Link the new account to this roster household when the invite is accepted: one you may keep (as for linking accounts), checked again then',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { email: 'robin.hale@example.org', units: [{ unit_id: 1, role: 'member' }] },
      { email: 'pat.hale@example.org', units: [{ unit_id: 1, role: 'member' }], household_id: 5, send_email: true },
    ],
  },
)

const INVITE_EXAMPLE = {
  id: 8,
  email: 'robin.hale@example.org',
  global_role: null,
  units: [{ unit_id: 1, role: 'member' }],
  household_id: 5,
  expires_at: '2026-12-07T08:00:00.000Z',
}

export const InviteCreated = t.Object(
  {
    id: t.Integer(),
    email: t.String(),
    global_role: GlobalRoleSchema,
    units: t.Array(UnitGrantSchema),
    household_id: Nullable(t.Integer({ description: 'The household the account is linked to on acceptance' })),
    expires_at: Instant,
    url: OneTime(t.String({ description: '{PUBLIC_BASE_URL}/invite/{token}: shown this once; send it yourself unless it is emailed' })),
    emailed: t.Boolean({ description: 'The link was queued to be mailed to the person (send_email)' }),
  },
  { additionalProperties: false, examples: [{ ...INVITE_EXAMPLE, url: 'https://pack123.example.org/invite/Xv3…', emailed: true }] },
)

/** An open invite, as the people list shows it (its link is never shown again). */
export const InviteView = t.Object(
  {
    id: t.Integer(),
    email: t.String(),
    global_role: GlobalRoleSchema,
    units: t.Array(UnitGrantSchema),
    invited_by: t.String(),
    created_at: Instant,
    expires_at: Instant,
  },
  { $id: 'Invite', additionalProperties: false },
)

export const InviteRevoked = t.Object(
  { id: t.Integer(), email: t.String(), revoked: t.Literal(true) },
  { additionalProperties: false, examples: [{ id: 8, email: 'robin.hale@example.org', revoked: true }] },
)

export const Acceptance = t.Object(
  { password: Password, name: t.Optional(Line(100, { description: 'How the site greets you' })) },
  { additionalProperties: false, examples: [{ password: 'correct horse battery', name: 'Robin Hale' }] },
)

export const Accepted = t.Object(
  {
    id: t.Integer(),
    email: t.String(),
    start: OneOf(['/admin/', '/family/'] as const, { description: "Where the new person's pages start" }),
  },
  { additionalProperties: false, examples: [{ id: 14, email: 'robin.hale@example.org', start: '/family/' }] },
)

/**
 * The household an invite links its account to: 422 when there is none, 403 unless the caller may keep it (the
 * roster's rule for linking accounts). Checked when the invite is issued and again when it is used.
 */
async function householdToLink(db: Executor, caller: Caller, householdId: number) {
  const household = await db.selectFrom('households').select(['id', 'parent_name']).where('id', '=', householdId).executeTakeFirst()
  if (!household) throw unprocessable(`household_id: no household ${householdId}`)
  await assertKeepsHousehold(db, caller, householdId)
  return household
}

/**
 * A new invite; an open invite for the same address is revoked by it, under the same rule as revoking. With
 * `send_email` the link is also queued to the person, in the same transaction. With `household_id` the account is
 * linked to that household when the invite is accepted.
 */
export async function invite(db: Db, caller: Caller, input: typeof NewInvite.static, publicBaseUrl: string, mail: MailSender | null) {
  const email = normaliseEmail(input.email)
  if (input.send_email) await assertMayMailLink(db, mail, email)
  const globalRole = input.global_role ?? null
  const units = input.units ?? []
  await assertMayInvite(db, caller, globalRole, units)
  const token = randomToken()
  const url = `${publicBaseUrl}/invite/${token}`
  const householdId = input.household_id ?? null
  const row = await write(db, async (trx) => {
    const household = householdId === null ? null : await householdToLink(trx, caller, householdId)
    if (await trx.selectFrom('people').select('id').where('email', '=', email).executeTakeFirst())
      throw conflict(
        `A person with this email already has an account${household ? `: link it to ${household.parent_name}'s household instead` : ''}`,
      )
    const earlier = await trx
      .selectFrom('invites')
      .select(['id', 'global_role', 'units'])
      .where('email', '=', email)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .execute()
    for (const e of earlier) await assertMayGrant(trx, caller, e.global_role, JSON.parse(e.units) as UnitGrant[])
    const now = nowIso()
    if (earlier.length)
      await trx
        .updateTable('invites')
        .set({ revoked_at: now })
        .where(
          'id',
          'in',
          earlier.map((e) => e.id),
        )
        .execute()
    const inserted = await trx
      .insertInto('invites')
      .values({
        token_hash: sha256(token),
        email,
        global_role: globalRole,
        units: JSON.stringify(units),
        invited_by: caller.actor,
        household_id: householdId,
        ...issuedBy(caller),
        created_at: now,
        expires_at: new Date(Date.now() + INVITE_DAYS * 86_400_000).toISOString(),
      })
      .returning(['id', 'expires_at'])
      .executeTakeFirstOrThrow()
    const roles = await rolesInWords(trx, globalRole, units)
    if (input.send_email) {
      const grant = { roles: globalRole || units.length ? roles : null, household: household?.parent_name ?? null }
      await queueInviteMail(trx, caller, email, grant, url, inserted.expires_at)
    }
    await record(
      trx,
      caller.actor,
      'people.invite',
      `Invited ${email} as ${roles}${household ? `, to join ${household.parent_name}'s household` : ''}${input.send_email ? ', by email' : ''}${earlier.length ? ' (the earlier invite stops working)' : ''}`,
    )
    return inserted
  })
  if (input.send_email) mail?.wake()
  return {
    id: row.id,
    email,
    global_role: globalRole,
    units,
    household_id: householdId,
    expires_at: row.expires_at,
    url,
    emailed: Boolean(input.send_email),
  }
}

/** Revokes an open invite; only what the caller could have granted (403), and a used, revoked or unknown one is 404. */
export async function revokeInvite(db: Db, caller: Caller, id: number) {
  return write(db, async (trx) => {
    const open = await trx
      .selectFrom('invites')
      .selectAll()
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (!open) throw notFound('No open invite with this id')
    await assertMayGrant(trx, caller, open.global_role, JSON.parse(open.units) as UnitGrant[])
    await trx.updateTable('invites').set({ revoked_at: nowIso() }).where('id', '=', id).execute()
    await record(trx, caller.actor, 'people.invite_revoke', `Revoked the invite of ${open.email}`)
    return { id, email: open.email, revoked: true as const }
  })
}

/**
 * An invite that works now (404 unknown, 410 used, expired, revoked or closed), with the unit roles it grants: its
 * issuer must still be able to issue it, household included (410 otherwise).
 */
async function openInvite(db: Db, token: string) {
  const link = await openLink(db, 'invites', token, 'invite link')
  const units = JSON.parse(link.units) as UnitGrant[]
  await assertIssuerStillMay(db, link, 'invite link', async (issuer) => {
    await assertMayInvite(db, issuer, link.global_role, units)
    if (link.household_id !== null) await householdToLink(db, issuer, link.household_id)
  })
  return { link, units }
}

/** Whom a working invite is for, for its page. */
export async function inviteFor(db: Db, token: string) {
  const { link } = await openInvite(db, token)
  return { email: link.email, expires_at: link.expires_at }
}

/** Accepts an invite: the account with its roles, linked to the invite's household in the same transaction, and a session token for it. */
export async function acceptInvite(db: Db, token: string, input: typeof Acceptance.static, from: Client) {
  const { link, units } = await openInvite(db, token)
  const passwordHash = await hashPassword(input.password)
  return write(db, async (trx) => {
    await useLink(trx, 'invites', link.id, 'invite link')
    const personId = await createAccount(trx, {
      email: link.email,
      name: input.name?.trim() || null,
      password_hash: passwordHash,
      global_role: link.global_role,
      units,
    })
    await trx.updateTable('invites').set({ person_id: personId }).where('id', '=', link.id).execute()
    await record(trx, link.email, 'people.join', `Accepted the invite from ${link.invited_by}`)
    if (link.household_id !== null) {
      const household = await trx
        .selectFrom('households')
        .select('parent_name')
        .where('id', '=', link.household_id)
        .executeTakeFirstOrThrow()
      await trx.insertInto('household_people').values({ household_id: link.household_id, person_id: personId }).execute()
      await record(
        trx,
        link.email,
        'roster.household_people',
        `${household.parent_name}'s household: linked to ${link.email}, who accepted an invite from ${link.invited_by}`,
      )
    }
    return { id: personId, email: link.email, token: await createSession(trx, personId, from) }
  })
}
