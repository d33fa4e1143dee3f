// Dates, times and names as the site writes them for people (pages, admin screens and history), in one place.
import type { Repeat } from './calendar/event.ts'
import type { RsvpAnswer } from './calendar/tables.ts'

/** "2027-02-14" → "Sun, Feb 14" (with `year`: "Sun, Feb 14, 2027"). */
export function dayWords(date: string, { year = false } = {}): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(year ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  })
}

/** "19:40" → "7:40 PM". */
export function clockWords(time: string): string {
  const [h, m] = time.split(':').map(Number)
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`
}

/**
 * How an event repeats: `every` as a page tells it ("Repeats every week until …"), `often` as the history writes it
 * ("…, weekly until …").
 */
export const REPEAT_WORDS: Record<Repeat, { every: string; often: string }> = {
  weekly: { every: 'every week', often: 'weekly' },
  monthly_date: { every: 'every month on the same date', often: 'monthly on the same date' },
  monthly_weekday: { every: 'every month on the same weekday', often: 'monthly on the same weekday' },
}

/** An event as the history writes it: “Pinewood derby”, Sun, Feb 14, 2027, 10:00 AM (, weekly until Tue, May 25, 2027). */
export const eventWords = (e: { title: string; date: string; time?: string | null; repeat?: Repeat; repeat_until?: string }) =>
  `“${e.title}”, ${dayWords(e.date, { year: true })}${e.time ? `, ${clockWords(e.time)}` : ''}` +
  (e.repeat && e.repeat_until ? `, ${REPEAT_WORDS[e.repeat].often} until ${dayWords(e.repeat_until, { year: true })}` : '')

const ANSWER_WORDS: Record<RsvpAnswer, string> = { yes: 'coming', maybe: 'maybe', no: 'not coming' }

/** A household's reply: "coming, 2 adults and 3 scouts", "not coming". */
export const replyWords = (r: { answer: RsvpAnswer; adults: number; scouts: number }) =>
  r.answer === 'no' ? ANSWER_WORDS.no : `${ANSWER_WORDS[r.answer]}, ${plural(r.adults, 'adult')} and ${plural(r.scouts, 'scout')}`

/** Whose something is: pack, troop or both. */
export const UNIT_WORDS: Record<string, string> = { pack: 'Pack', troop: 'Troop', both: 'Pack and troop' }

/** An event's kind in words (its X-SITE-KIND). */
export const KIND_WORDS: Record<string, string> = {
  meeting: 'Meeting',
  campout: 'Campout',
  hike: 'Hike',
  service: 'Service',
  other: 'Other',
}

/** The kinds of unit a nearby-units entry may be, as people say them; also their order in the directory. */
export const UNIT_TYPE_WORDS: Record<string, string> = {
  pack: 'Cub Scout pack',
  troop: 'Scouts BSA troop',
  crew: 'Venturing crew',
  ship: 'Sea Scout ship',
  post: 'Exploring post',
}

/** "first, second and third" */
export function listWords(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The fields a change touched, as words: {parent_name, unit_id} → "parent name and unit". */
export const fieldWords = (change: object) =>
  listWords(Object.keys(change).map((k) => k.replace(/_id$/, '').replaceAll('_', ' '))) || 'nothing'

/** Cents as people write money: 123450 → "$1,234.50". */
export const dollars = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100)

/** A count with its noun: (1, 'scout') → "1 scout", (3, 'scout') → "3 scouts". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** A scout's name as leaders and families read it: first name, the name they go by when it differs, last name. */
export const scoutName = (s: { first_name: string; preferred_name?: string | null; last_name: string | null }) =>
  [s.first_name, s.preferred_name && s.preferred_name !== s.first_name ? `“${s.preferred_name}”` : null, s.last_name]
    .filter(Boolean)
    .join(' ')

/** A den or patrol as the troop and pack say it: "Wolf den", "Eagle Patrol" (never "Eagle Patrol den"). */
export function denWords(den: string, unitSlug: string) {
  if (/^grade\b/i.test(den)) return den
  if (unitSlug === 'troop') return /\bpatrol$/i.test(den) ? den : `${den} Patrol`
  return /\bden$/i.test(den) ? den : `${den} den`
}

/** What a scout is called day to day: the name they go by, then their last name. */
export const goesBy = (s: { first_name: string; preferred_name?: string | null; last_name: string | null }) =>
  `${s.preferred_name || s.first_name} ${s.last_name ?? ''}`.trim()

/** A file's size as people say it: "120 KB", "3.4 MB". */
export const sizeWords = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`
