// A health form counts as current for 12 months from the date written on it; that date is all that is kept of it.
import { addDays } from '../calendar/zone.ts'

/** The last day a form dated `formDate` counts: the day before the same date a year on (29 February: 28 February). */
export function healthFormUntil(formDate: string): string {
  const [y, m, d] = formDate.split('-').map(Number)
  // Date.UTC rolls 29 February of a common year over to 1 March, so the day before is the 28th.
  return addDays(new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10), -1)
}

/** How a scout's health form stands on `day` (YYYY-MM-DD): its date, its last day, and whether `day` is within it. */
export function healthFormOn(formDate: string | null, day: string) {
  const expiresOn = formDate ? healthFormUntil(formDate) : null
  return { form_date: formDate, expires_on: expiresOn, current: !!expiresOn && day <= expiresOn }
}
