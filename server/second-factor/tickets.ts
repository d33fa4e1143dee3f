// The step between a right password and its second factor (and a passkey sign-in's challenge): a ticket lives five
// minutes, dies after five wrong codes, and is used once.
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Executor } from '../db/database.ts'
import { gone } from '../errors.ts'
import { nowIso } from '../schemas.ts'

const TICKET_MS = 5 * 60_000
export const TICKET_TRIES = 5

/** A new ticket for `personId` (null until a passkey names the person), with the WebAuthn challenge when passkeys may answer. */
export async function newTicket(db: Executor, personId: number | null, challenge: string | null): Promise<string> {
  const token = randomToken()
  const now = Date.now()
  await db
    .insertInto('login_tickets')
    .values({
      token_hash: sha256(token),
      person_id: personId,
      challenge,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + TICKET_MS).toISOString(),
    })
    .execute()
  // Old tickets are of no use to anyone.
  await db
    .deleteFrom('login_tickets')
    .where('expires_at', '<', new Date(now - TICKET_MS).toISOString())
    .execute()
  return token
}

/** The open ticket a token names; 410 when it is unknown, used, expired or out of tries. */
export async function openTicket(db: Executor, token: string) {
  const ticket = await db.selectFrom('login_tickets').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst()
  if (!ticket || ticket.used_at || Date.parse(ticket.expires_at) <= Date.now() || ticket.failures >= TICKET_TRIES)
    throw gone('This sign-in has expired or had too many wrong codes; sign in again')
  return ticket
}

/** Counts a wrong answer against the ticket; returns how many tries it has left. */
export async function failTicket(db: Executor, id: number): Promise<number> {
  const row = await db
    .updateTable('login_tickets')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .returning('failures')
    .executeTakeFirstOrThrow()
  return Math.max(0, TICKET_TRIES - row.failures)
}

/** Uses the ticket up, in the sign-in's transaction; 410 when another request used it first. */
export async function useTicket(trx: Executor, id: number): Promise<void> {
  const used = await trx
    .updateTable('login_tickets')
    .set({ used_at: nowIso() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst()
  if (Number(used.numUpdatedRows) !== 1) throw gone('This sign-in was already completed; sign in again')
}
