// The weekly digest: for each active household, the next 14 days of its units' events (with a reply link where the
// event asks) and the live announcements for its units, mailed to its subscribed addresses at mail.digest_day and
// mail.digest_hour. A household with nothing coming gets nothing; a day's digest is queued once (digest_runs).
import type { Caller } from '../auth/credential.ts'
import { liveAnnouncements } from '../announcements/state.ts'
import { occurrencesIn } from '../calendar/event.ts'
import { addDays, utcToZoned, zonedToUtc } from '../calendar/zone.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { WEEKDAYS } from '../formats.ts'
import { record, unchanged, write } from '../db/write.ts'
import { compose } from '../mail/compose.ts'
import { markdownText } from '../mail/markdown.ts'
import { queueMail } from '../mail/outbox.ts'
import { ledUnits } from '../auth/led-units.ts'
import { Nullable, nowIso, OneOf, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { clockWords, dayWords, UNIT_WORDS } from '../words.ts'
import { familyAddresses, unsubscribedOf } from './audience.ts'
import { unsubscribeTokens } from './subscriptions.ts'
import { replyUrl } from '../calendar/reply-token.ts'

const DAYS_AHEAD = 14
/** A digest missed while the service was down still goes within this long of its hour, and not after. */
export const CATCH_UP_MS = 6 * 3_600_000

export const DigestPreview = t.Object(
  {
    next_at: Nullable(t.String({ format: 'date-time', description: 'When the next digest goes; null when mail.digest_day is none' })),
    households: t.Array(
      t.Object(
        {
          household_id: t.Integer(),
          parent_name: t.String(),
          emails: t.Array(t.String(), { description: 'Its subscribed addresses' }),
          events: t.Array(
            t.Object(
              {
                uid: t.String(),
                title: t.String(),
                date: t.String({ format: 'date' }),
                time: t.Optional(t.String()),
                unit: OneOf(['pack', 'troop', 'both'] as const),
                asks_reply: t.Boolean({ description: 'The event asks for replies and the household has not answered' }),
              },
              { additionalProperties: false },
            ),
          ),
          announcements: t.Array(t.String(), { description: 'Live announcements for its units' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Each household that would get a digest (those with nothing coming are left out)' },
    ),
    mails: t.Integer({ description: 'How many mails it would send' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        next_at: '2026-11-30T00:00:00.000Z',
        households: [
          {
            household_id: 3,
            parent_name: 'Jordan Lee',
            emails: ['jordan@example.org'],
            events: [
              { uid: 'derby@example.org', title: 'Pinewood Derby', date: '2026-12-05', time: '10:00', unit: 'pack', asks_reply: true },
            ],
            announcements: ['Popcorn orders are due Friday'],
          },
        ],
        mails: 1,
      },
    ],
  },
)

const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`

/** When the digest goes, as the settings say it. */
export async function digestClock(db: Executor): Promise<{ day: string; hour: number; timeZone: string }> {
  const [day, hour, timeZone] = await Promise.all([
    getSetting(db, 'mail.digest_day'),
    getSetting(db, 'mail.digest_hour'),
    getSetting(db, 'site.timezone'),
  ])
  return { day, hour, timeZone }
}

/** The instant of the digest for the week that contains `now`'s last digest day, at or before `now`; null when off. */
export function previousDigestAt(now: number, day: string, hour: number, timeZone: string): number | null {
  const target = WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number])
  if (target < 0) return null
  const today = utcToZoned(now, timeZone).date
  for (let back = 0; back <= 7; back++) {
    const date = addDays(today, -back)
    const at = zonedToUtc(date, hourText(hour), timeZone)
    if (weekdayIndex(date) === target && at <= now) return at
  }
  return null
}

export function nextDigestAt(now: number, day: string, hour: number, timeZone: string): number | null {
  const previous = previousDigestAt(now, day, hour, timeZone)
  if (previous === null) return null
  const date = addDays(utcToZoned(previous, timeZone).date, 7)
  return zonedToUtc(date, hourText(hour), timeZone)
}

/** Monday 0 … Sunday 6, as WEEKDAYS lists them. */
const weekdayIndex = (date: string) => (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7

interface HouseholdDigest {
  household_id: number
  parent_name: string
  emails: string[]
  events: { uid: string; title: string; date: string; time?: string; unit: 'pack' | 'troop' | 'both'; asks_reply: boolean }[]
  announcements: string[]
}

/** What each household would get at `now`: those with a subscribed address and something coming. */
export async function digestsAt(db: Executor, now: number, onlyUnits: Set<number> | null = null): Promise<HouseholdDigest[]> {
  const timeZone = await getSetting(db, 'site.timezone')
  const [units, scouts, objects, asking, live] = await Promise.all([
    db.selectFrom('units').select(['id', 'slug']).execute(),
    db
      .selectFrom('scouts')
      .innerJoin('households', 'households.id', 'scouts.household_id')
      .select(['scouts.household_id', 'scouts.unit_id'])
      .where('households.active', '=', 1)
      .execute(),
    db.selectFrom('calendar_objects').select('ics').execute(),
    db.selectFrom('rsvp_events').select('uid').where('asking', '=', 1).where('gone_at', 'is', null).execute(),
    liveAnnouncements(db, now),
  ])
  const replies = new Set(asking.map((a) => a.uid))
  // A household that has answered is not asked again; its answer is on the family page.
  const answeredRows = replies.size
    ? await db
        .selectFrom('rsvps')
        .select(['uid', 'household_id'])
        .where('uid', 'in', [...replies])
        .execute()
    : []
  const answered = new Set(answeredRows.map((r) => `${r.household_id} ${r.uid}`))
  const events = occurrencesIn(objects, now, now + DAYS_AHEAD * 86_400_000, timeZone)
  const unitsOf = new Map<number, Set<string>>()
  for (const s of scouts) {
    if (onlyUnits && !onlyUnits.has(s.unit_id)) continue
    const slug = units.find((u) => u.id === s.unit_id)!.slug
    unitsOf.set(s.household_id, (unitsOf.get(s.household_id) ?? new Set()).add(slug))
  }
  const families = await familyAddresses(db, [...unitsOf.keys()])
  const off = new Set(
    await unsubscribedOf(
      db,
      families.flatMap((f) => f.emails),
    ),
  )
  const out: HouseholdDigest[] = []
  for (const family of families) {
    const mine = unitsOf.get(family.id)!
    const emails = family.emails.filter((e) => !off.has(e))
    const forMe = (unit: string) => unit === 'both' || mine.has(unit)
    const digest = {
      household_id: family.id,
      parent_name: family.parent_name,
      emails,
      events: events
        .filter((e) => forMe(e.unit))
        .map((e) => ({
          uid: e.uid,
          title: e.title,
          date: e.date,
          ...(e.time ? { time: e.time } : {}),
          unit: e.unit,
          asks_reply: replies.has(e.uid) && !answered.has(`${family.id} ${e.uid}`),
        })),
      announcements: live.filter((a) => forMe(a.unit)).map((a) => a.message),
    }
    if (emails.length && (digest.events.length || digest.announcements.length)) out.push(digest)
  }
  return out
}

/** What GET /api/admin/messages/digest shows: the next digest as it would go out (a leader sees their units' households). */
export async function digestPreview(db: Executor, caller: Caller) {
  const { day, hour, timeZone } = await digestClock(db)
  const nextAt = nextDigestAt(Date.now(), day, hour, timeZone)
  const households = await digestsAt(db, nextAt ?? Date.now(), ledUnits(caller))
  return {
    next_at: nextAt === null ? null : new Date(nextAt).toISOString(),
    households,
    mails: households.reduce((sum, h) => sum + h.emails.length, 0),
  }
}

/**
 * One household's digest, as Markdown for the HTML part (titles escaped so their punctuation stays literal) and as
 * plain text for the text part (the same lines without escapes or marks).
 */
function digestBody(digest: HouseholdDigest, baseUrl: string, links: Map<string, string>): { markdown: string; text: string } {
  const markdown: string[] = []
  const text: string[] = []
  const line = (md: string, plain = md) => (markdown.push(md), text.push(plain))
  if (digest.events.length) {
    line('## Coming up in the next two weeks', 'Coming up in the next two weeks')
    line('')
    for (const e of digest.events) {
      const when = `${dayWords(e.date)}${e.time ? `, ${clockWords(e.time)}` : ''}`
      // Bare addresses: the HTML part links them, and the text part reads well.
      const reply = e.asks_reply ? ` — reply: ${links.get(e.uid)}` : ''
      const unit = UNIT_WORDS[e.unit].toLowerCase()
      line(`- **${markdownText(when)}**: ${markdownText(e.title)} (${unit})${reply}`, `- ${when}: ${e.title} (${unit})${reply}`)
    }
    line('')
  }
  if (digest.announcements.length) {
    line('## Announcements', 'Announcements')
    line('')
    for (const a of digest.announcements) line(`- ${markdownText(a)}`, `- ${a}`)
    line('')
  }
  line(`The full calendar: ${baseUrl}/calendar/`)
  return { markdown: markdown.join('\n'), text: text.join('\n') }
}

/**
 * Queues the digest of the day that falls at `at` (its instant), once: a second call for the same day, after a
 * restart or from a second timer, finds the run recorded and does nothing. Returns how many mails it queued.
 */
export async function sendDigest(db: Db, at: number, baseUrl: string): Promise<number> {
  const timeZone = await getSetting(db, 'site.timezone')
  const day = utcToZoned(at, timeZone).date
  return write(db, async (trx) => {
    const done = await trx.selectFrom('digest_runs').select('day').where('day', '=', day).executeTakeFirst()
    if (done) {
      unchanged(trx)
      return 0
    }
    const digests = await digestsAt(trx, Date.now())
    const site = await getSetting(trx, 'site.name')
    const tokens = await unsubscribeTokens(
      trx,
      digests.flatMap((d) => d.emails),
    )
    const mails = []
    for (const digest of digests) {
      // Each household's own reply link: it answers without an account.
      const links = new Map<string, string>()
      for (const e of digest.events) if (e.asks_reply) links.set(e.uid, await replyUrl(trx, baseUrl, digest.household_id, e.uid))
      const body = digestBody(digest, baseUrl, links)
      for (const to of digest.emails) {
        const token = tokens.get(to)!
        const letter = await compose(trx, {
          subject: `This week at ${site}`,
          paragraphs: [],
          ...body,
          why: `You get this weekly mail because ${to} is on the roster of ${site}.`,
          unsubscribe: `${baseUrl}/unsubscribe/#${token}`,
        })
        mails.push({
          kind: 'digest' as const,
          to,
          ...letter,
          headers: { 'List-Unsubscribe': `<${baseUrl}/api/unsubscribe/${token}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        })
      }
    }
    await queueMail(trx, mails)
    await trx.insertInto('digest_runs').values({ day, ran_at: nowIso(), mails: mails.length }).execute()
    await record(
      trx,
      'system',
      'messages.digest',
      mails.length
        ? `Weekly digest for ${day} to ${mails.length} address${mails.length === 1 ? '' : 'es'}`
        : `Weekly digest for ${day}: nothing to say`,
    )
    return mails.length
  })
}
