// Dates for tests that hold on any day of the year: each is built from today, inside the calendar's shown
// window (today and the 365 days after it), never from "next year".
const DAY = 86_400_000

/** `date` (YYYY-MM-DD) moved by `n` days. */
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)

/** Today in UTC (YYYY-MM-DD). */
export const today = () => new Date().toISOString().slice(0, 10)

/** `2027-03-02` → `20270302`, as iCalendar writes dates. */
export const compact = (date: string) => date.replaceAll('-', '')

/**
 * The first day at least two days ahead (so it is in the future in every time zone) that lies in `month` (1–12)
 * with `room` more days of that month after it: a January day for winter time, a July day for summer time. It and
 * its `room` end at least two days inside the calendar's window of 365 days, or it throws: with a large `room` some
 * days of the year have no such day (on 16 March, none in March with 14 days after it).
 */
export function upcoming(month: number, room = 0): string {
  for (let ahead = 2; ahead + room <= 363; ahead++) {
    const date = addDays(today(), ahead)
    if (Number(date.slice(5, 7)) === month && Number(addDays(date, room).slice(5, 7)) === month) return date
  }
  throw new Error(`no day in month ${month} with ${room} days after it within a year`)
}

/**
 * The next day (at least two days ahead) the clocks spring forward in America/Chicago: the second Sunday of March,
 * when 02:00–03:00 does not happen.
 */
export function springForward(): string {
  for (let ahead = 2; ahead < 366; ahead++) {
    const date = addDays(today(), ahead)
    const day = Number(date.slice(8, 10))
    if (date.slice(5, 7) === '03' && new Date(`${date}T00:00:00Z`).getUTCDay() === 0 && day >= 8 && day <= 14) return date
  }
  throw new Error('no second Sunday of March within a year')
}
