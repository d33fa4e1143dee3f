// Online payments: Stripe's `checkout.session.completed` webhook, its signature checked by the stripe package against
// STRIPE_WEBHOOK_SECRET (no call ever goes to Stripe, and no card data reaches us), becomes a payment entry for the
// household whose payment reference it carries as client_reference_id — once per event and per checkout session,
// however often Stripe retries. A payment that names no household waits, unmatched, for the treasurer to assign.
import type Stripe from 'stripe'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import { badRequest, conflict, HttpError, notFound, unprocessable } from '../errors.ts'
import { logEvent } from '../ops/log.ts'
import { nowIso } from '../schemas.ts'
import { today } from '../settings/registry.ts'
import { dollars } from '../words.ts'
import { insertEntry } from './commands.ts'
import { settleDues } from './dues-checks.ts'
import { assertKeepsMoneyOf, entryById } from './queries.ts'

/** Who the ledger and the action log say wrote an entry that came from Stripe. */
const STRIPE_ACTOR = 'stripe'

/** Writes the payment entry of an online payment for `householdId` and marks the payment assigned to it. */
async function enterPayment(trx: Executor, actor: string, paymentId: number, householdId: number) {
  const payment = await trx.selectFrom('online_payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()
  const entryId = await insertEntry(trx, actor, {
    household_id: householdId,
    scout_id: null,
    kind: 'payment',
    amount_cents: payment.amount_cents,
    date: await today(trx),
    memo: 'Paid online',
    method: 'online',
    reference: payment.session_id,
  })
  await trx
    .updateTable('online_payments')
    .set({ entry_id: entryId, assigned_by: actor, assigned_at: nowIso() })
    .where('id', '=', paymentId)
    .execute()
  return { entryId, settled: await settleDues(trx, actor, householdId), payment }
}

/**
 * Takes one webhook delivery: 503 while online payments are not set up, 400 (logged) for a signature that does not
 * check out. Events other than a paid checkout are acknowledged and kept nowhere, so Stripe stops sending them.
 */
export async function receiveStripeEvent(db: Db, secret: string | null, payload: string, signature: string | null) {
  if (!secret)
    throw new HttpError(503, 'Online payments are not set up here: STRIPE_WEBHOOK_SECRET is not set', { code: 'payments_not_configured' })
  // Loaded at the first webhook, not at every start: the package is large and most units never take payments online.
  const { default: stripe } = await import('stripe')
  let event: Stripe.Event
  try {
    if (!signature) throw new Error('no Stripe-Signature header')
    event = await stripe.webhooks.constructEventAsync(payload, signature, secret)
  } catch (error) {
    logEvent('payments.bad_signature', { ok: false, message: error instanceof Error ? error.message.slice(0, 200) : 'unreadable' })
    throw badRequest("The Stripe-Signature does not match this webhook's signing secret", 'bad_signature')
  }
  if (event.type !== 'checkout.session.completed') return { received: true, recorded: false }
  const session = event.data.object
  const amount = session.amount_total ?? 0
  if (session.payment_status !== 'paid' || amount <= 0) return { received: true, recorded: false }
  const reference = session.client_reference_id?.trim().toUpperCase() || null
  const recorded = await write(db, async (trx) => {
    const row = await trx
      .insertInto('online_payments')
      .values({
        provider: 'stripe',
        event_id: event.id,
        session_id: session.id,
        reference: session.client_reference_id ?? null,
        amount_cents: amount,
        currency: session.currency ?? 'usd',
        payer_email: session.customer_details?.email ?? null,
        received_at: nowIso(),
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!row) {
      unchanged(trx) // a retry, or another event for a session already counted
      return false
    }
    const household = reference
      ? await trx.selectFrom('households').select(['id', 'parent_name']).where('payment_reference', '=', reference).executeTakeFirst()
      : undefined
    if (!household) {
      await record(
        trx,
        STRIPE_ACTOR,
        'money.online_unmatched',
        `Online payment of ${dollars(amount)} names no household (reference ${reference ?? 'none'})`,
      )
      return true
    }
    const { settled } = await enterPayment(trx, STRIPE_ACTOR, row.id, household.id)
    await record(
      trx,
      STRIPE_ACTOR,
      'money.online',
      `Online payment of ${dollars(amount)} from ${household.parent_name}'s household${settled}`,
    )
    return true
  })
  return { received: true, recorded }
}

/** Online payments that named no household, oldest first. */
export async function listUnmatched(db: Executor) {
  const rows = await db
    .selectFrom('online_payments')
    .select(['id', 'received_at', 'amount_cents', 'currency', 'reference', 'session_id', 'payer_email'])
    .where('entry_id', 'is', null)
    .orderBy('id')
    .execute()
  return { payments: rows }
}

/** Gives an unmatched online payment to a household: its payment entry is written now. */
export async function assignUnmatched(db: Db, caller: Caller, id: number, householdId: number) {
  const entryId = await write(db, async (trx) => {
    const payment = await trx.selectFrom('online_payments').select(['id', 'entry_id']).where('id', '=', id).executeTakeFirst()
    if (!payment) throw notFound('No such online payment')
    if (payment.entry_id !== null) throw conflict(`This payment is already entry ${payment.entry_id}`, 'already_assigned')
    const household = await trx.selectFrom('households').select(['id', 'parent_name']).where('id', '=', householdId).executeTakeFirst()
    if (!household) throw unprocessable(`household_id: no household ${householdId}`)
    await assertKeepsMoneyOf(trx, caller, household.id)
    const done = await enterPayment(trx, caller.actor, id, household.id)
    await record(
      trx,
      caller.actor,
      'money.online_assign',
      `Online payment of ${dollars(done.payment.amount_cents)} given to ${household.parent_name}'s household${done.settled}`,
    )
    return done.entryId
  })
  return { entry: await entryById(db, entryId) }
}
