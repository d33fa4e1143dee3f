// Reminders for events that ask for replies, through the mail outbox: households that said yes or maybe hear 24 hours
// before the start, and households the event concerns that have not answered hear 48 hours before signup.closes_at.
// Each goes once per event, household and kind (recorded with its mail in one transaction), only while the event is
// still ahead, and only to households that were already in that position when it fell due: a family answering an hour
// before the start is not "reminded" of the answer it just gave. Without mail, leaders see the same list as a to-do.
import type { Db } from '../db/client.ts'
import { type Selectable, sql } from 'kysely'
import type { ReminderKind, RsvpEventTable } from './tables.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { compose } from '../mail/compose.ts'
import type { MailSender } from '../mail/sender.ts'
import { queueMail } from '../mail/outbox.ts'
import { familyAddresses } from '../messages/audience.ts'
import { DueTimer } from '../ops/due-timer.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { getSetting } from '../settings/registry.ts'
import { instantWords } from '../instant-words.ts'
import { clockWords, dayWords, plural } from '../words.ts'
import type { Reminder } from './rsvp-schemas.ts'
import { signupOf } from './signup.ts'
import { replyUrl } from './reply-token.ts'

const HOUR = 3_600_000
/** How long before the moment each reminder goes. */
export const REMIND_BEFORE = { before_start: 24 * HOUR, before_close: 48 * HOUR } as const

const EVENT_FIELDS = ['uid', 'title', 'date', 'time', 'location', 'starts_at', 'unit', 'signup'] as const
type Event = Pick<Selectable<RsvpEventTable>, (typeof EVENT_FIELDS)[number]>

/** When each reminder of an event falls due; none for a closing time without one. */
function dueTimes(e: Event): [ReminderKind, number][] {
  const closes = signupOf(e)?.closes_at
  return [
    ['before_start', Date.parse(e.starts_at) - REMIND_BEFORE.before_start],
    ...(closes ? ([['before_close', Date.parse(closes) - REMIND_BEFORE.before_close]] as [ReminderKind, number][]) : []),
  ]
}

/** The end of a reminder's window: after the start (or the close) it no longer helps. */
const windowEnd = (e: Event, kind: ReminderKind) =>
  kind === 'before_start' ? Date.parse(e.starts_at) : Date.parse(signupOf(e)!.closes_at!)

/** Households due `kind` for event `e` at moment `due` that have not had it: ids, parent names and answers. */
async function dueHouseholds(db: Executor, e: Event, kind: ReminderKind, due: number) {
  const candidates =
    kind === 'before_start'
      ? await db
          .selectFrom('rsvps')
          .innerJoin('households', 'households.id', 'rsvps.household_id')
          .select(['households.id', 'households.parent_name', 'rsvps.answer'])
          .where('rsvps.uid', '=', e.uid)
          .where('rsvps.answer', 'in', ['yes', 'maybe'])
          .where('rsvps.answered_at', '<=', new Date(due).toISOString())
          .where('households.active', '=', 1)
          .orderBy('households.parent_name')
          .execute()
      : await db
          .selectFrom('households')
          .select(['households.id', 'households.parent_name', sql<null>`null`.as('answer')])
          .where('households.active', '=', 1)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('scouts')
                .innerJoin('units', 'units.id', 'scouts.unit_id')
                .select('scouts.id')
                .whereRef('scouts.household_id', '=', 'households.id')
                .$if(e.unit !== 'both', (q) => q.where('units.slug', '=', e.unit as 'pack' | 'troop')),
            ),
          )
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('rsvps').select('uid').where('uid', '=', e.uid).whereRef('household_id', '=', 'households.id'))),
          )
          .orderBy('households.parent_name')
          .execute()
  const reminded = await db.selectFrom('rsvp_reminders').select('household_id').where('uid', '=', e.uid).where('kind', '=', kind).execute()
  const done = new Set(reminded.map((r) => r.household_id))
  return candidates.filter((h) => !done.has(h.id))
}

const eventsAhead = (db: Executor, now: number) =>
  db
    .selectFrom('rsvp_events')
    .select(EVENT_FIELDS)
    .where('asking', '=', 1)
    .where('gone_at', 'is', null)
    .where('starts_at', '>', new Date(now).toISOString())
    .execute()

/** An event's reminders as leaders see them: when each falls due, how many went, and who is still due one. */
export async function remindersOf(db: Executor, e: Event, now = Date.now()): Promise<(typeof Reminder.static)[]> {
  const sent = await db
    .selectFrom('rsvp_reminders')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('uid', '=', e.uid)
    .groupBy('kind')
    .execute()
  const out = []
  for (const [kind, due] of dueTimes(e)) {
    const open = due <= now && now < windowEnd(e, kind)
    out.push({
      kind,
      due_at: new Date(due).toISOString(),
      reminded: Number(sent.find((r) => r.kind === kind)?.n ?? 0),
      to_remind: open ? (await dueHouseholds(db, e, kind, due)).map((h) => h.parent_name) : [],
    })
  }
  return out
}

function letterOf(kind: ReminderKind, e: Event, closes: string | null, answer: string | null) {
  const when = `${dayWords(e.date, { year: true })}${e.time ? ` at ${clockWords(e.time)}` : ''}${e.location ? `, ${e.location}` : ''}`
  if (kind === 'before_start')
    return {
      subject: `Tomorrow: ${e.title}`,
      paragraphs: [
        `“${e.title}” starts ${when}.`,
        answer === 'maybe'
          ? 'Your household said maybe: please say yes or no so the leaders can plan.'
          : 'Your household said you are coming. If your plans have changed, please change your reply.',
      ],
    }
  return {
    subject: `Replies close soon: ${e.title}`,
    paragraphs: [`Replies for “${e.title}” (${when}) close ${closes}.`, 'Your household has not replied yet.'],
  }
}

/**
 * Queues every reminder due at `now` that has not gone: for each, the mail to the household's addresses and the record
 * that it went, in one transaction with its action-log entry. Answers the mails queued and when the next falls due.
 */
export async function sendReminders(db: Db, now: number, baseUrl: string): Promise<{ queued: number; next: number }> {
  let queued = 0
  let next = Infinity
  const [site, timeZone] = [await getSetting(db, 'site.name'), await getSetting(db, 'site.timezone')]
  for (const e of await eventsAhead(db, now))
    for (const [kind, due] of dueTimes(e)) {
      if (due > now) {
        next = Math.min(next, due)
        continue
      }
      if (now >= windowEnd(e, kind)) continue
      const households = await dueHouseholds(db, e, kind, due)
      if (!households.length) continue
      // One tick at a time (DueTimer), and a reminder recorded twice breaks the primary key: it rolls back, mails and all.
      queued += await write(db, async (trx) => {
        const answers = new Map(households.map((h) => [h.id, h.answer]))
        const closes = kind === 'before_close' ? instantWords(signupOf(e)!.closes_at!, timeZone) : null
        let mails = 0
        for (const family of await familyAddresses(
          trx,
          households.map((h) => h.id),
        )) {
          const words = letterOf(kind, e, closes, answers.get(family.id) ?? null)
          const url = await replyUrl(trx, baseUrl, family.id, e.uid)
          const letter = await compose(trx, {
            ...words,
            link: { label: kind === 'before_start' ? 'See your reply' : 'Reply', url },
            why: `You get this mail because your household is part of ${site} and this event asks for replies.`,
          })
          await queueMail(
            trx,
            family.emails.map((to) => ({
              kind: 'signup' as const,
              to,
              ...letter,
              push: { kind: 'reminder' as const, title: words.subject, body: words.paragraphs.join(' '), url },
            })),
          )
          mails += family.emails.length
        }
        await trx
          .insertInto('rsvp_reminders')
          .values(households.map((h) => ({ uid: e.uid, household_id: h.id, kind, queued_at: new Date(now).toISOString() })))
          .execute()
        await record(
          trx,
          'system',
          'calendar.reminder',
          `Reminded ${plural(households.length, 'household')} of “${e.title}” ` +
            (kind === 'before_start' ? '(it starts within 24 hours)' : '(replies close within 48 hours)'),
        )
        return mails
      })
    }
  return { queued, next }
}

/**
 * The reminders' timer (with mail only): wakes when the next falls due, and at least every 10 minutes, so an event
 * added or moved inside its reminder window is reminded within 10 minutes.
 */
export class ReminderSchedule {
  private readonly timer: DueTimer

  constructor(db: Db, mail: MailSender, baseUrl: string) {
    this.timer = new DueTimer(
      async () => {
        const now = Date.now()
        const { queued, next } = await sendReminders(db, now, baseUrl)
        if (queued) {
          logEvent('calendar.reminders', { message: `${queued} event reminders are on their way` })
          mail.wake()
        }
        return next - now
      },
      (error) =>
        logEvent('calendar.reminders', { ok: false, message: `Event reminders could not be queued (again soon): ${errorText(error)}` }),
      10 * 60_000,
    )
  }

  start = () => this.timer.wake()
  stop = () => this.timer.stop()
}
