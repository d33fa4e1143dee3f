// A split yes: when a household's scouts outnumber the places left, the family may choose to have the first ones
// confirmed now (in the order chosen) and the rest wait, instead of all waiting together. The row stays confirmed and
// `rsvps.waiting` counts the scouts still waiting, the last ones of scout_ids; they move up as places free.
import { t } from '../schemas.ts'
import { unprocessable } from '../errors.ts'

export const SplitField = {
  split: t.Optional(
    t.Boolean({
      description:
        'With signup.capacity, when the scouts are more than the places left: true confirms as many as fit now, the first ones ' +
        'of scout_ids in the order given, and waitlists the rest (they move up as places free); absent or false, all wait together',
    }),
  ),
}

/** Refuses (422) a split that cannot mean anything, before anything is read. */
export function assertSplit(capacity: number | undefined, reply: { answer: string; scouts: number; split?: boolean }) {
  if (!reply.split) return
  if (reply.answer !== 'yes') throw unprocessable('split: only a yes can be split; send it without split')
  if (capacity === undefined)
    throw unprocessable('split: this event has no limit on places, so every scout is confirmed; send it without split')
  if (reply.scouts < 2) throw unprocessable('split: one scout is confirmed or waits, it cannot be split; send it without split')
}

/** Where a split yes stands: `had` places kept, up to `left` more taken, the rest waiting; 422 when none can be confirmed. */
export function splitPlace(had: number, left: number, scouts: number, othersWait: boolean, queued_at: string) {
  const now = Math.min(scouts, had + left)
  if (now === 0)
    throw unprocessable(
      `split: no place is free for your scouts now (${othersWait ? 'others already wait for one' : 'the places are taken'}); send it without split and they all wait together`,
    )
  return { status: 'confirmed' as const, queued_at, waiting: scouts - now }
}

/** How many of a reply's scouts wait for a place, and which when they are named: all of a waitlisted yes, the rest of a split one. */
export function waitingOf(r: { answer: string; status: string; scouts: number; waiting: number; scout_ids: number[] | null }) {
  const n = r.answer !== 'yes' ? 0 : r.status === 'waitlisted' ? r.scouts : r.waiting
  return { waitlisted_scouts: n, waitlisted_scout_ids: r.scout_ids ? r.scout_ids.slice(r.scout_ids.length - n) : null }
}
