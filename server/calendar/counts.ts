// The counts of an event's replies, one rule everywhere (the calendar list, the replies, the trip roster, the family
// page): a yes waiting for a place is not "coming" and its slots are not filled until it moves up. An event with
// places (signup.capacity) counts the waitlist on its own.
import { sql } from 'kysely'
import type { Executor } from '../db/database.ts'
import { RSVP_ANSWERS, type RsvpAnswer } from './tables.ts'
import { signupOf, type SignupSettings } from './signup.ts'

type Headcount = { households: number; adults: number; scouts: number }
type Totals = Record<RsvpAnswer, Headcount> & { waitlisted?: Headcount }

const none = (): Headcount => ({ households: 0, adults: 0, scouts: 0 })
const emptyTotals = (signup: SignupSettings | null): Totals => ({
  ...(Object.fromEntries(RSVP_ANSWERS.map((a) => [a, none()])) as Record<RsvpAnswer, Headcount>),
  ...(signup?.capacity !== undefined ? { waitlisted: none() } : {}),
})

/** Headcounts per event uid, for the events that ever asked for replies; waitlisted yes replies apart from yes. */
export async function totalsByUid(db: Executor) {
  const rows = await db
    .selectFrom('rsvp_events')
    .leftJoin('rsvps', 'rsvps.uid', 'rsvp_events.uid')
    .select((eb) => [
      'rsvp_events.uid',
      'rsvp_events.asking',
      'rsvp_events.signup',
      'rsvps.answer',
      'rsvps.status',
      eb.fn.count<number>('rsvps.household_id').as('households'),
      eb.fn.coalesce(eb.fn.sum<number>('rsvps.adults'), eb.lit(0)).as('adults'),
      eb.fn.coalesce(eb.fn.sum<number>('rsvps.scouts'), eb.lit(0)).as('scouts'),
      // A split yes: its scouts still waiting count as waitlisted, the household under both.
      eb.fn.coalesce(eb.fn.sum<number>('rsvps.waiting'), eb.lit(0)).as('waiting'),
      sql<number>`coalesce(sum("rsvps"."waiting" > 0), 0)`.as('split'),
    ])
    .groupBy(['rsvp_events.uid', 'rsvps.answer', 'rsvps.status'])
    .execute()
  const out = new Map<string, { asking: boolean; signup: SignupSettings | null; totals: Totals }>()
  for (const r of rows) {
    const signup = signupOf(r)
    const entry = out.get(r.uid) ?? { asking: r.asking === 1, signup, totals: emptyTotals(signup) }
    const add = (key: keyof Totals, n: Headcount) => {
      const count = entry.totals[key] ?? none()
      entry.totals[key] = { households: count.households + n.households, adults: count.adults + n.adults, scouts: count.scouts + n.scouts }
    }
    if (r.answer) {
      const key = r.answer === 'yes' && r.status === 'waitlisted' ? 'waitlisted' : r.answer
      const waiting = Number(r.waiting)
      add(key, { households: Number(r.households), adults: Number(r.adults), scouts: Number(r.scouts) - waiting })
      if (waiting) add('waitlisted', { households: Number(r.split), adults: 0, scouts: waiting })
    }
    out.set(r.uid, entry)
  }
  return out
}
