// The Pay buttons: one link per way of paying the unit has set up, with the amount and a memo filled in where the
// provider takes them. The Stripe Payment Link carries the household's payment reference as client_reference_id, so
// the payment its webhook reports lands on the right account.
import type { Executor } from '../db/database.ts'
import { getSetting } from '../settings/registry.ts'

export interface PayLink {
  provider: 'paypal' | 'venmo' | 'stripe'
  label: string
  url: string
}

export async function payLinks(db: Executor, due: { amount_cents: number; memo: string; reference: string }): Promise<PayLink[]> {
  const amount = (due.amount_cents / 100).toFixed(2)
  const links: PayLink[] = []
  const paypal = await getSetting(db, 'payments.paypal_me')
  if (paypal) links.push({ provider: 'paypal', label: 'Pay with PayPal', url: `https://paypal.me/${paypal}/${amount}USD` })
  const venmo = await getSetting(db, 'payments.venmo')
  if (venmo) {
    const query = new URLSearchParams({ txn: 'pay', amount, note: `${due.memo} (${due.reference})` })
    links.push({ provider: 'venmo', label: 'Pay with Venmo', url: `https://venmo.com/${venmo}?${query}` })
  }
  const stripe = await getSetting(db, 'payments.stripe_link')
  if (stripe) {
    const url = new URL(stripe)
    url.searchParams.set('client_reference_id', due.reference)
    links.push({ provider: 'stripe', label: 'Pay by card', url: url.href })
  }
  return links
}
