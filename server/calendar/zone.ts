// Wall-clock time in the site's time zone ↔ UTC instants, with Intl (no time-zone table of our own).
function parts(ms: number, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]))
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` }
}

/** The UTC instant of a wall-clock date and time in `timeZone` (the earlier one when a clock change repeats it). */
export function zonedToUtc(date: string, time: string, timeZone: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`)
  let guess = wall
  for (let i = 0; i < 3; i++) {
    const seen = parts(guess, timeZone)
    const diff = Date.parse(`${seen.date}T${seen.time}:00Z`) - wall
    if (diff === 0) break
    guess -= diff
  }
  return guess
}

/** Whether a wall-clock time happens in `timeZone`: not one the clock skips (02:30 on the spring-forward day). */
export const existsIn = (date: string, time: string, timeZone: string) => {
  const seen = parts(zonedToUtc(date, time, timeZone), timeZone)
  return seen.date === date && seen.time === time
}

/** The wall-clock date and time of a UTC instant in `timeZone`. */
export const utcToZoned = (ms: number, timeZone: string) => parts(ms, timeZone)

export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
