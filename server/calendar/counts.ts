// The counts of an event's replies, one rule everywhere (the calendar list, the replies, the trip roster, the family
// page): a yes waiting for a place is not "coming" and its slots are not filled until it moves up. An event with
// places (signup.capacity) counts the waitlist on its own.
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
    ])
    .groupBy(['rsvp_events.uid', 'rsvps.answer', 'rsvps.status'])
    .execute()
  const out = new Map<string, { asking: boolean; signup: SignupSettings | null; totals: Totals }>()
  for (const r of rows) {
    const signup = signupOf(r)
    const entry = out.get(r.uid) ?? { asking: r.asking === 1, signup, totals: emptyTotals(signup) }
    if (r.answer) {
      const key = r.answer === 'yes' && r.status === 'waitlisted' ? 'waitlisted' : r.answer
      const count = entry.totals[key] ?? none()
      entry.totals[key] = {
        households: count.households + Number(r.households),
        adults: count.adults + Number(r.adults),
        scouts: count.scouts + Number(r.scouts),
      }
    }
    out.set(r.uid, entry)
  }
  return out
}
