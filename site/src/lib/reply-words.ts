// The reply card's words that need no page: when an event is (one range for several days) and the warning before
// sending more scouts than there are places left (all wait together, or the family splits them). Kept apart from the
// page code so unit tests can read them.
import { clockWords, dayWords, plural } from '#server/words.ts'

/** The places of an event with signup.capacity, as its answer carries them. */
type Places = { capacity: number; confirmed: number; waitlisted: number; left: number } | undefined
/** The household's reply so far, as far as the warning needs it. */
type Kept = { answer: string; status: string; scouts: number; waitlisted_scouts?: number } | undefined

/** "Sat, Jan 9, 10:00 AM – Sun, Jan 10, 11:00 AM", "Fri, Jan 8 – Sun, Jan 10 (all day)", "Tue, Dec 1, 7:00 PM – 8:30 PM". */
export function whenWords(e: { date: string; time: string | null; details: { end_date: string | null; end_time: string | null } }): string {
  const { end_date: end, end_time: endTime } = e.details
  const start = `${dayWords(e.date)}${e.time ? `, ${clockWords(e.time)}` : ''}`
  if (!e.time) return end ? `${start} – ${dayWords(end)} (all day)` : `${start}, all day`
  if (end) return `${start} – ${dayWords(end)}${endTime ? `, ${clockWords(endTime)}` : ''}`
  return endTime ? `${start} – ${clockWords(endTime)}` : start
}

/** How many scouts a split would confirm now (split: true, the rest wait), or 0 when there is no choice to offer. */
export function splitOffer(chosen: number, places: Places, reply: Kept): number {
  if (!places || chosen < 2) return 0
  const { mine, left } = room(places, reply)
  const now = Math.min(chosen, mine + left)
  return now > 0 && now < chosen && chosen > mine ? now : 0
}

/** The household's scouts confirmed, and the places free to it: none while other households wait for one. */
function room(places: NonNullable<Places>, reply: Kept) {
  const yes = reply?.answer === 'yes'
  const mine = yes && reply.status === 'confirmed' ? reply.scouts - (reply.waitlisted_scouts ?? 0) : 0
  const own = yes ? (reply.status === 'waitlisted' ? reply.scouts : (reply.waitlisted_scouts ?? 0)) : 0
  return { mine, left: places.waitlisted - own > 0 ? 0 : places.left, othersWait: places.waitlisted - own > 0 }
}

/**
 * Before sending: a plain warning when the scouts chosen are more than the places left: all of them wait together, or,
 * when the family chooses to split (`split`), the first ones are confirmed and the rest wait. Empty when they fit.
 */
export function overWords(chosen: number, places: Places, reply: Kept, split = false): string {
  if (!places || chosen === 0) return ''
  const { mine, left, othersWait } = room(places, reply)
  if (mine && chosen <= mine) return ''
  const offer = splitOffer(chosen, places, reply)
  const where = left === 0 ? (othersWait ? 'others are already waiting' : 'no places left') : `${plural(left, 'place')} left`
  if (split && offer)
    return `${plural(chosen, 'scout')}, ${!mine ? where : left ? `${plural(left, 'more place')} left` : 'no more places left'}: ${offer} confirmed now, ${chosen - offer} on the waiting list, moving up as places free.`
  if (mine)
    return chosen - mine > left
      ? `${plural(chosen, 'scout')}, ${plural(left, 'more place')} left: this change is refused and ${mine === 1 ? 'your place stays' : `your ${mine} places stay`} yours. Choose fewer scouts${offer ? `, or confirm ${offer} now and let the rest wait` : ''}.`
      : ''
  if (chosen <= left) return ''
  const who =
    chosen === 1
      ? 'your scout goes on the waiting list and moves up when a place frees'
      : `${chosen === 2 ? 'both' : `all ${chosen}`} go on the waiting list and move up together when places free`
  return `${plural(chosen, 'scout')}, ${where}: ${who}.` + (offer ? ` Or confirm ${offer} now and let the rest wait: choose below.` : '')
}
