// One-time links (invites, password resets, sign-in links, the first-owner setup): found by the SHA-256 of their token, open
// until used, revoked or expired, and used exactly once even when two requests race.
import { sha256 } from '../auth/tokens.ts'
import type { Executor } from '../db/database.ts'
import type { Invite, ResetLink, SetupToken } from './tables.ts'
import type { LoginLink } from '../account/tables.ts'
import type { Trx } from '../db/write.ts'
import { gone, notFound } from '../errors.ts'
import { Instant, Line, nowIso, t } from '../schemas.ts'

/** The path of a one-time link: its token. */
export const LinkToken = t.Object({ token: Line(100, { description: 'The token from the link' }) })

/** What an open link's page shows before it is used: the account it is for (never asked of a closed or unknown link). */
export const LinkFor = t.Object(
  { email: t.String(), expires_at: Instant },
  { additionalProperties: false, examples: [{ email: 'robin.hale@example.org', expires_at: '2026-11-24T08:00:00.000Z' }] },
)

type LinkTable = 'invites' | 'reset_links' | 'setup_tokens' | 'login_links'

interface LinkState {
  id: number
  used_at: string | null
  revoked_at?: string | null
  expires_at?: string
}

/** The link row a token names: 404 when there is none, 410 when it is used, revoked or expired. */
export async function openLink(db: Executor, table: 'invites', token: string, what: string): Promise<Invite>
export async function openLink(db: Executor, table: 'reset_links', token: string, what: string): Promise<ResetLink>
export async function openLink(db: Executor, table: 'setup_tokens', token: string, what: string): Promise<SetupToken>
export async function openLink(db: Executor, table: 'login_links', token: string, what: string): Promise<LoginLink>
export async function openLink(db: Executor, table: LinkTable, token: string, what: string): Promise<LinkState> {
  const row: LinkState | undefined = await db.selectFrom(table).selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst()
  if (!row) throw notFound(`No such ${what}`)
  if (row.used_at || row.revoked_at || (row.expires_at && Date.parse(row.expires_at) <= Date.now()))
    throw gone(`This ${what} has expired, was revoked or was already used; ask for a new one`)
  return row
}

/** Marks the link used in the caller's transaction; 410 when another request used it first. */
export async function useLink(trx: Trx, table: LinkTable, id: number, what: string): Promise<void> {
  const used = await trx.updateTable(table).set({ used_at: nowIso() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst()
  if (!Number(used.numUpdatedRows)) throw gone(`This ${what} was already used`)
}
