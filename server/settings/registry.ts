// The typed settings registry, read-only: every run-time setting with its type, default, description and check,
// and reading them. Changing one, and what a change sets off, is setting-changes/changes.ts, above the features.
import { type Static, type TInteger, type TNull, type TSchema, type TString, type TUnion, Type as t, TypeGuard } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Executor } from '../db/database.ts'
import { WEEKDAYS } from '../formats.ts'
import { instantWords } from '../instant-words.ts'

/** One setting; `S` is its schema, so its value type (Static<S>) is known to every reader. */
export interface SettingDef<S extends TSchema = TSchema> {
  /** What the settings page calls it. */
  label: string
  type: string
  schema: S
  default: Static<S>
  description: string
  /** For a setting with a few values: each value with its words. */
  choices?: Record<string, string>
  /** Extra validation beyond the schema (the value has passed it); returns an error message or null. */
  check?(value: Static<S>): string | null
  /**
   * True for a value that widens where credentials work or loosens a protection (given the value in force): only a
   * signed-in person (a session) may set it, never a key or the break-glass token.
   */
  widens?(value: Static<S>, current: Static<S>): boolean
  /** An address the service will call: refused when it names this machine or a private network (see Outbound). */
  calledByService?: true
}

/** A setting declared in place: its callbacks read values of its schema's type. */
const setting = <S extends TSchema>(def: SettingDef<S>) => def

const httpUrl = (value: string | null) => {
  if (value === null) return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http(s) URL'
  } catch {
    return 'must be an http(s) URL'
  }
}

const timeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return null
  } catch {
    return 'must be an IANA time zone such as America/Chicago'
  }
}

/** A whole-number setting from `min` to `max`. */
const integer = (label: string, min: number, max: number, fallback: number, description: string): SettingDef<TInteger> => ({
  label,
  type: `a whole number from ${min} to ${max}`,
  schema: t.Integer({ minimum: min, maximum: max }),
  default: fallback,
  description,
})

/** An http(s) URL, or null to turn the feature off. */
const url = (label: string, description: string): SettingDef<TUnion<[TString, TNull]>> => ({
  label,
  type: 'an http(s) address, or null for none',
  schema: t.Union([t.String({ maxLength: 2000 }), t.Null()]),
  default: null,
  description,
  check: httpUrl,
  calledByService: true,
})

/** One line of text shown on the public site. */
const text = (label: string, max: number, fallback: string, description: string): SettingDef<TString> => ({
  label,
  type: `text of 1 to ${max} characters`,
  schema: t.String({ minLength: 1, maxLength: max, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }),
  default: fallback,
  description,
  check: (value) => (value.trim() ? null : 'must not be blank'),
})

/** An uploaded file's id (an image the public pages show), or null for none. */
const fileId = (label: string, description: string): SettingDef<TUnion<[TString, TNull]>> => ({
  label,
  type: 'the id of an uploaded public image, or null for none',
  schema: t.Union([t.String({ pattern: '^[A-Za-z0-9_-]{22}$' }), t.Null()]),
  default: null,
  description,
})

/** security.second_factor from loosest to strictest: loosening it needs a signed-in person. */
const STRICTNESS = ['optional', 'admins', 'leaders'] as const

export const SETTINGS = {
  'site.name': text('Site name', 60, 'Pack & Troop', 'The name at the top of every page, in page titles and in link previews.'),
  'site.description': text(
    'Site description',
    200,
    'A Cub Scout pack and a Scouts BSA troop: meetings, events and how to join.',
    'One or two sentences for search results and link previews.',
  ),
  api_keys_from: setting({
    label: 'Where API keys work',
    type: 'lan or anywhere',
    schema: t.Union([t.Literal('lan'), t.Literal('anywhere')]),
    default: 'lan',
    description: 'Whether scripts with API keys may call the site only from the local network, or from anywhere.',
    choices: { lan: 'Only from the local network', anywhere: 'From anywhere' },
    widens: (value) => value === 'anywhere',
  }),
  'announcements.max_chars': integer('Longest announcement', 1, 2000, 280, 'The most characters an announcement message may have.'),
  'announcements.live_cap': integer('Announcements shown at once', 1, 20, 3, 'How many announcements may be live at the same time.'),
  'site.timezone': setting({
    label: 'Time zone',
    type: 'an IANA time zone such as America/Chicago',
    schema: t.String({ minLength: 1, maxLength: 64 }),
    default: 'America/Chicago',
    description: 'The time zone the units meet in (for example America/Chicago): calendar and displayed times use it.',
    check: timeZone,
  }),
  'security.second_factor': setting({
    label: 'Second factor',
    type: 'optional, admins or leaders',
    schema: t.Union([t.Literal('optional'), t.Literal('admins'), t.Literal('leaders')]),
    default: 'optional',
    description:
      'Who must add a second factor (an authenticator app or a passkey) to sign in. Someone it newly asks has 14 days; after that ' +
      'only their account page opens until they add one.',
    choices: {
      optional: 'Everyone chooses for themselves',
      admins: 'Required of owners and admins',
      leaders: 'Required of owners, admins and unit leaders',
    },
    widens: (value, current) => STRICTNESS.indexOf(value) < STRICTNESS.indexOf(current),
  }),
  'mirrors.spreadsheet_url': url(
    'Spreadsheet copy of new leads',
    'The web address of a spreadsheet web app that receives a copy of each new lead. Leave empty for no copy.',
  ),
  'socialposts.control_url': url(
    'Social publisher address',
    "The web address of the social publisher's control server, which takes reschedule requests. Leave empty if there is none.",
  ),
  'socialposts.min_lead_minutes': integer(
    'Notice for a rescheduled post (minutes)',
    0,
    10080,
    30,
    'How many minutes ahead a rescheduled post must be set.',
  ),
  'roster.year_start_month': integer(
    'Month the program year starts',
    1,
    12,
    8,
    'The month (1–12) the program year and its checklist start; 8 is August.',
  ),
  'site.rebuild_minutes': integer(
    'Minutes between site refreshes',
    1,
    1440,
    15,
    'How often the public site is rebuilt on its own, to pick up calendar changes made in other calendar apps.',
  ),
  'site.logo': fileId(
    'Logo',
    'The id of an uploaded public image (Files page) shown beside the site name at the top of every page; null for none.',
  ),
  'site.share_image': fileId(
    'Link-preview image',
    'The id of an uploaded public image (Files page) that link previews (Open Graph, Twitter cards) show for every public page; null for none.',
  ),
  'files.max_mb': integer('Largest file (MB)', 1, 100, 20, 'The largest file a leader may upload, in megabytes; a larger one is refused.'),
  'files.total_gb': integer(
    'Space for files (GB)',
    1,
    1000,
    5,
    'How much disk all uploaded files and their image sizes may use together, in gigabytes; an upload past it is refused until files are deleted.',
  ),
  'backups.keep': integer(
    'Daily backups kept',
    1,
    90,
    7,
    'How many daily copies of the database stay in the backup folder; older ones are deleted after each new backup.',
  ),
  'backups.hour': integer(
    'Hour of the daily backup',
    0,
    23,
    3,
    "The hour (0–23, in the site's time zone) at which the daily copy of the database is made; 3 is 3 AM.",
  ),
  'mail.per_minute': integer(
    'Mails sent per minute',
    1,
    1000,
    60,
    'The most mails handed to the mail relay in any minute; the rest wait their turn. Many internet providers block a sender that goes faster than their limit.',
  ),
  'mail.messages_per_hour': integer(
    'Messages per sender per hour',
    1,
    1000,
    10,
    'The most messages to families one person may send in any hour, admins and owners too: a stolen or careless account cannot flood the families.',
  ),
  'mail.keep_days': integer(
    'Days a sent mail keeps its text',
    1,
    3650,
    30,
    'After this many days a mail that was sent (or given up) keeps only its delivery record (to whom, when, how it went); its text is removed.',
  ),
  'mail.digest_day': setting({
    label: 'Day of the weekly digest',
    type: 'a day of the week, or none',
    schema: t.Union([...WEEKDAYS.map((d) => t.Literal(d)), t.Literal('none')]),
    default: 'sunday',
    description:
      "The day each family gets a mail with the next two weeks of its units' events and the live announcements; none sends no digest.",
    choices: { ...Object.fromEntries(WEEKDAYS.map((d) => [d, d[0].toUpperCase() + d.slice(1)])), none: 'No digest' },
  }),
  'mail.digest_hour': integer(
    'Hour of the weekly digest',
    0,
    23,
    18,
    "The hour (0–23, in the site's time zone) at which the weekly digest goes; 18 is 6 PM.",
  ),
  'payments.instructions': setting({
    label: 'How to pay for events',
    type: 'Markdown of up to 2000 characters, or null for none',
    schema: t.Union([t.String({ maxLength: 2000 }), t.Null()]),
    default: null,
    description:
      'Shown on the reply card of every event that costs something (signup.cost_cents), and with what a family owes on its family page and statements: whom to pay, by check, cash or Zelle. Markdown; links and lists work.',
    check: (value) => (value !== null && !value.trim() ? 'must not be blank (null for none)' : null),
  }),
  'payments.paypal_me': setting({
    label: 'PayPal.me name',
    type: 'a PayPal.me name (letters and digits, up to 20), or null for none',
    schema: t.Union([t.String({ pattern: '^[A-Za-z0-9]{1,20}$' }), t.Null()]),
    default: null,
    description:
      "The unit's PayPal.me name (the part after paypal.me/): families who owe see a Pay with PayPal button with the amount filled in.",
  }),
  'payments.venmo': setting({
    label: 'Venmo username',
    type: 'a Venmo username (5 to 30 letters, digits, - or _), or null for none',
    schema: t.Union([t.String({ pattern: '^[A-Za-z0-9_-]{5,30}$' }), t.Null()]),
    default: null,
    description: "The unit's Venmo username, without @: families who owe see a Pay with Venmo button with the amount and a note filled in.",
  }),
  'payments.stripe_link': setting({
    label: 'Stripe Payment Link',
    type: 'a Stripe Payment Link (https://buy.stripe.com/…), or null for none',
    schema: t.Union([t.String({ pattern: '^https://buy\\.stripe\\.com/[A-Za-z0-9_/-]{1,200}$' }), t.Null()]),
    default: null,
    description:
      "A Stripe Payment Link that lets the payer choose the amount: families who owe see a Pay by card button that carries their household's payment reference, so the payment lands on their account (see Online payments in the operating guide).",
  }),
  'catalog.per_minute': integer(
    'Catalog requests per minute per address',
    1,
    10_000_000,
    600,
    'How many requests one address may send to the public catalog (/api/catalog) in a minute; beyond that it is answered 429 with Retry-After until the minute is over. The largest value is as good as no limit (benchmarks use it).',
  ),
} satisfies Record<string, SettingDef>

export type SettingKey = keyof typeof SETTINGS
/** The value of the setting under `K`, as its schema declares it. */
export type SettingValueOf<K extends SettingKey> = Static<(typeof SETTINGS)[K]['schema']>
export const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(SETTINGS, key)

/** Whether only a signed-in person may set this value (it widens where credentials work, or loosens a protection). */
export function needsSession(key: SettingKey, value: unknown, current: unknown): boolean {
  const def: SettingDef = SETTINGS[key]
  return def.widens?.(value, current) ?? false
}

/** Returns an error message for a value the setting refuses, or null when it is acceptable. */
export function settingError(key: SettingKey, value: unknown): string | null {
  const def: SettingDef = SETTINGS[key]
  if (!Value.Check(def.schema, value)) return `must be ${def.type}`
  return def.check ? def.check(value) : null
}

/** Stored values by database, read again at least this often so a change made by hand (SQL) takes effect. */
const cache = new WeakMap<object, { values: Map<string, unknown>; readAt: number }>()
const REREAD_MS = 10_000
/** The values read within the last REREAD_MS, or undefined. */
function freshValues(db: Executor): Map<string, unknown> | undefined {
  const entry = cache.get(db)
  return entry && Date.now() - entry.readAt < REREAD_MS ? entry.values : undefined
}

async function storedValues(db: Executor): Promise<Map<string, unknown>> {
  let values = freshValues(db)
  if (!values) {
    const readAt = Date.now()
    const rows = await db.selectFrom('settings').select(['key', 'value']).execute()
    values = new Map(rows.map((r) => [r.key, JSON.parse(r.value)]))
    cache.set(db, { values, readAt })
  }
  return values
}

/** The value in force among `values` (a value is checked against its schema when it is written). */
const valueIn = <K extends SettingKey>(values: Map<string, unknown>, key: K) =>
  (values.has(key) ? values.get(key) : SETTINGS[key].default) as SettingValueOf<K>

/** A setting's value when the settings were read within the last 10 s (by `getSetting`), else undefined. */
export function loadedSetting<K extends SettingKey>(db: Executor, key: K): SettingValueOf<K> | undefined {
  const values = freshValues(db)
  return values && valueIn(values, key)
}

export async function getSetting<K extends SettingKey>(db: Executor, key: K): Promise<SettingValueOf<K>> {
  return valueIn(await storedValues(db), key)
}

const boundsOf = (key: SettingKey) => {
  const { schema }: SettingDef = SETTINGS[key]
  return TypeGuard.IsInteger(schema) ? { minimum: schema.minimum, maximum: schema.maximum } : {}
}

const choicesOf = (key: SettingKey) => {
  const def: SettingDef = SETTINGS[key]
  return def.choices ? { choices: Object.entries(def.choices).map(([value, label]) => ({ value, label })) } : {}
}

export async function listSettings(db: Executor) {
  const values = await storedValues(db)
  return (Object.keys(SETTINGS) as SettingKey[]).map((key) => ({
    key,
    label: SETTINGS[key].label,
    type: SETTINGS[key].type,
    ...choicesOf(key),
    ...boundsOf(key),
    value: valueIn(values, key),
    default: SETTINGS[key].default,
    description: SETTINGS[key].description,
  }))
}

/** Forgets the values read, so the next read sees a change just committed. */
export const forgetSettings = (db: Executor) => void cache.delete(db)

/** An instant as people read it in the site's time zone: "Dec 6, 2026, 6:00 PM". */
export async function siteTime(db: Executor, instant: string | number): Promise<string> {
  return instantWords(instant, await getSetting(db, 'site.timezone'))
}

/** Today's date (YYYY-MM-DD) in the site's time zone. */
export async function today(db: Executor): Promise<string> {
  return new Intl.DateTimeFormat('en-CA', { timeZone: await getSetting(db, 'site.timezone') }).format(new Date())
}
