// The reply card's words that need no page: when an event is (one range for several days) and the warning before
// sending more scouts than there are places left. Kept apart from the page code so unit tests can read them.
import { clockWords, dayWords, plural } from '#server/words.ts'

/** The places of an event with signup.capacity, as its answer carries them. */
type Places = { capacity: number; confirmed: number; waitlisted: number; left: number } | undefined
/** The household's reply so far, as far as the warning needs it. */
type Kept = { answer: string; status: string; scouts: number } | undefined

/** "Sat, Jan 9, 10:00 AM – Sun, Jan 10, 11:00 AM", "Fri, Jan 8 – Sun, Jan 10 (all day)", "Tue, Dec 1, 7:00 PM – 8:30 PM". */
export function whenWords(e: { date: string; time: string | null; details: { end_date: string | null; end_time: string | null } }): string {
  const { end_date: end, end_time: endTime } = e.details
  const start = `${dayWords(e.date)}${e.time ? `, ${clockWords(e.time)}` : ''}`
  if (!e.time) return end ? `${start} – ${dayWords(end)} (all day)` : `${start}, all day`
  if (end) return `${start} – ${dayWords(end)}${endTime ? `, ${clockWords(endTime)}` : ''}`
  return endTime ? `${start} – ${clockWords(endTime)}` : start
}

/**
 * Before sending: a plain warning when the scouts chosen are more than the places left; all of them then wait, since a
 * household's yes is confirmed or waitlisted as a whole. Empty when they fit.
 */
export function overWords(chosen: number, places: Places, reply: Kept): string {
  if (!places || chosen === 0) return ''
  const mine = reply?.answer === 'yes' && reply.status === 'confirmed' ? reply.scouts : 0
  if (mine && chosen <= mine) return ''
  const left = places.waitlisted && !mine ? 0 : places.left
  if (mine)
    return chosen - mine > left
      ? `${plural(chosen, 'scout')}, ${plural(left, 'more place')} left: this change is refused and ${mine === 1 ? 'your place stays' : `your ${mine} places stay`} yours. Choose fewer scouts.`
      : ''
  if (chosen <= left) return ''
  const who =
    chosen === 1
      ? 'your scout goes on the waiting list and moves up when a place frees'
      : `${chosen === 2 ? 'both' : `all ${chosen}`} go on the waiting list and move up together when places free`
  const room = left === 0 ? (places.waitlisted ? 'others are already waiting' : 'no places left') : `${plural(left, 'place')} left`
  return (
    `${plural(chosen, 'scout')}, ${room}: ${who}.` +
    (left > 0 ? ` To have ${left === 1 ? 'one' : left} confirmed now, choose ${plural(left, 'scout')} and reply for the others later.` : '')
  )
}
