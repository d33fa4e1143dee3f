// An instant as people read it, in one file of its own: the settings registry (a low layer) and the admin pages
// (in the browser) both use it, and neither should load the features' words or TypeBox's formats with it.
/** An instant in a time zone: "Dec 6, 2026, 6:00 PM". */
export function instantWords(instant: string | number | Date, timeZone: string): string {
  return new Date(instant).toLocaleString('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' })
}
