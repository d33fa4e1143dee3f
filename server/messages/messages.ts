// Messages from leaders to families: sending one (a mail per address through the outbox, in the write that records
// it), the list every leader of the units it went to can read (two-deep leadership), and its deliveries.
import { type Selectable, sql } from 'kysely'
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { conflict, notFound, tooMany, unprocessable } from '../errors.ts'
import { decodeCursor, encodeCursor, PAGE, pageOf } from '../http/paging.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { ledUnits } from '../auth/led-units.ts'
import { nowIso, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { type AudienceInput, type Recipient, resolveAudience } from './audience.ts'
import { MessageListQuery, type NewMessage, type PreviewRequest } from './schemas.ts'
import { unsubscribeTokens } from './subscriptions.ts'
import { pushDeliveriesOf, pushStatesOf, urgentPush } from '../push/deliveries.ts'
import { replyUrl } from '../calendar/reply-token.ts'
import type { MessageTable } from './tables.ts'

export const NO_MAIL =
  'Mail is not set up on this site: the operator sets SMTP_URL and MAIL_FROM (a provider\'s SMTP relay, or a Gmail or Fastmail app password; see "Mail" in docs/operating.md)'

/** A cursor's position: the last message's id (the list is newest first by id). */
const Position = t.Tuple([t.Integer()])

/** Who would get it, without sending. */
export async function previewMessage(db: Executor, caller: Caller, input: typeof PreviewRequest.static) {
  const resolved = await resolveAudience(db, caller, input.audience, input.urgent ?? false)
  return {
    recipients: resolved.recipients.length,
    emails: resolved.recipients.map((r) => r.email),
    skipped: resolved.skipped,
    audience_words: resolved.words,
  }
}

/** Sends a message: 409 while mail is not set up, 422 when nobody would get it. */
export async function sendMessage(db: Db, caller: Caller, input: typeof NewMessage.static, baseUrl: string, mail: MailSender | null) {
  if (!mail) throw conflict(NO_MAIL)
  if (!input.subject.trim()) throw unprocessable('subject: must not be blank')
  if (!input.body.trim()) throw unprocessable('body: must not be blank')
  const urgent = input.urgent ?? false
  const sender = caller.person!
  const id = await write(db, async (trx) => {
    await assertUnderCap(trx, sender.id)
    const resolved = await resolveAudience(trx, caller, input.audience, urgent)
    if (!resolved.recipients.length)
      throw unprocessable(
        resolved.skipped.length
          ? 'audience: nobody would get it (every household there has no address or has unsubscribed)'
          : 'audience: nobody would get it (no active household there)',
      )
    const message = await trx
      .insertInto('messages')
      .values({
        created_at: nowIso(),
        sender_person_id: sender.id,
        sent_by: sender.email,
        subject: input.subject,
        body: input.body,
        audience: JSON.stringify({ ...input.audience, words: resolved.words }),
        unit_ids: JSON.stringify(resolved.unitIds),
        urgent: urgent ? 1 : 0,
        recipients: resolved.recipients.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (resolved.skipped.length)
      await trx
        .insertInto('message_skips')
        .values(resolved.skipped.map((s) => ({ message_id: message.id, ...s })))
        .execute()
    await queueMessageMails(trx, message.id, resolved.recipients, { ...input, urgent, words: resolved.words, sender, baseUrl })
    await record(
      trx,
      caller.actor,
      urgent ? 'messages.send_urgent' : 'messages.send',
      `"${input.subject}" to ${resolved.recipients.length} address${resolved.recipients.length === 1 ? '' : 'es'} (${resolved.words})` +
        (resolved.skipped.length ? `, ${resolved.skipped.length} skipped` : ''),
    )
    return message.id
  })
  mail.wake()
  return messageById(db, caller, id)
}

const HOUR = 3_600_000

/**
 * 429 `message_cap_reached` while the sender has sent `mail.messages_per_hour` messages in the last hour (admins and
 * owners too), with Retry-After when the one that makes the count leaves the hour.
 */
async function assertUnderCap(db: Executor, personId: number) {
  const cap = await getSetting(db, 'mail.messages_per_hour')
  const recent = await db
    .selectFrom('messages')
    .select('created_at')
    .where('sender_person_id', '=', personId)
    .where('created_at', '>', new Date(Date.now() - HOUR).toISOString())
    .orderBy('created_at', 'desc')
    .limit(cap)
    .execute()
  if (recent.length < cap) return
  const wait = (Date.parse(recent.at(-1)!.created_at) + HOUR - Date.now()) / 1000
  throw tooMany(
    `You have sent ${cap} messages in the last hour, as many as mail.messages_per_hour allows; wait before sending another`,
    wait,
    'message_cap_reached',
  )
}

interface Sending {
  subject: string
  body: string
  urgent: boolean
  words: string
  sender: { email: string; name: string | null }
  audience: AudienceInput
  baseUrl: string
}

/** One mail per address, replies going to the leader; a non-urgent one carries its one-click unsubscribe (RFC 8058). */
async function queueMessageMails(trx: Executor, messageId: number, recipients: Recipient[], m: Sending) {
  const site = await getSetting(trx, 'site.name')
  const tokens = await unsubscribeTokens(
    trx,
    recipients.map((r) => r.email),
  )
  const from = m.sender.name ? `${m.sender.name} (${m.sender.email})` : m.sender.email
  const uid = m.audience.event?.uid
  // About an event that asks for replies: each family's mail carries its own reply link.
  const asking =
    uid && (await trx.selectFrom('rsvp_events').select('uid').where('uid', '=', uid).where('asking', '=', 1).executeTakeFirst())
  const mails = []
  for (const r of recipients) {
    const token = tokens.get(r.email)!
    const why =
      (r.because === 'leader'
        ? `You get this mail because you lead a unit of ${site}.`
        : `You get this mail because ${r.email} is on the roster of ${site}.`) +
      (m.urgent ? ' It was sent as urgent, so it reaches every family, even those who stopped the site’s mail.' : '')
    const letter = await compose(trx, {
      subject: m.subject,
      paragraphs: [],
      markdown: m.body,
      ...(asking && r.household ? { link: { label: 'Reply', url: await replyUrl(trx, m.baseUrl, r.household, asking.uid) } } : {}),
      after: [`Sent by ${from} to ${m.words}. Reply to this mail to write to them.`],
      why,
      ...(m.urgent ? {} : { unsubscribe: `${m.baseUrl}/unsubscribe/#${token}` }),
    })
    mails.push({
      kind: 'message' as const,
      to: r.email,
      ...letter,
      messageId,
      push: m.urgent ? urgentPush(m, `${m.baseUrl}${r.because === 'leader' ? '/admin/' : '/family/'}`) : undefined,
      headers: {
        replyTo: m.sender.email,
        ...(m.urgent
          ? {}
          : { 'List-Unsubscribe': `<${m.baseUrl}/api/unsubscribe/${token}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }),
      },
    })
  }
  await queueMail(trx, mails)
}

/**
 * Only the messages a caller may read: admins and owners every one; a leader their own and those to their units
 * (`unit_ids`: every unit a recipient household has a scout in, and the units the audience names).
 */
function visibleTo(caller: Caller) {
  const led = ledUnits(caller)
  const me = caller.person?.id ?? -1
  return sql<boolean>`${led === null ? sql`1` : sql`("messages"."sender_person_id" = ${me} or exists (select 1 from json_each("messages"."unit_ids") where value in (${sql.join([...led, -1])})))`}`
}

export async function listMessages(db: Executor, caller: Caller, query: typeof MessageListQuery.static) {
  const limit = query.limit ?? PAGE.default
  const after = query.cursor ? decodeCursor('messages', query, query.cursor, Position) : undefined
  const below = Math.min(query.before_id ?? Infinity, after?.[0] ?? Infinity)
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where(visibleTo(caller))
    .$if(below !== Infinity, (q) => q.where('id', '<', below))
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  const page = pageOf(rows, limit)
  const last = page.rows.at(-1)
  return {
    messages: await views(db, page.rows),
    next_cursor: page.more && last ? encodeCursor('messages', query, [last.id]) : null,
  }
}

export async function messageById(db: Executor, caller: Caller, id: number) {
  const row = await db.selectFrom('messages').selectAll().where('id', '=', id).where(visibleTo(caller)).executeTakeFirst()
  if (!row) throw notFound('No such message (or it went to units you do not lead)')
  const [view] = await views(db, [row])
  const [mails, skips, pushes] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select(['to_address', 'state', 'error', 'sent_at'])
      .where('message_id', '=', id)
      .orderBy('to_address')
      .execute(),
    db.selectFrom('message_skips').selectAll().where('message_id', '=', id).execute(),
    pushDeliveriesOf(db, id),
  ])
  return {
    ...view,
    deliveries: [
      ...mails.map((m) => ({
        email: m.to_address,
        who: m.to_address,
        state: m.state === 'sending' ? ('queued' as const) : m.state,
        channel: 'mail' as const,
        ...(m.state === 'failed' || (m.state === 'queued' && m.error) ? { reason: m.error ?? 'not delivered' } : {}),
        ...(m.sent_at ? { at: m.sent_at } : {}),
      })),
      ...pushes,
      ...skips.map((s) => ({ email: s.email, who: s.who, state: 'skipped' as const, channel: 'mail' as const, reason: s.reason })),
    ],
  }
}

async function views(db: Executor, rows: Selectable<MessageTable>[]) {
  if (!rows.length) return []
  const ids = rows.map((r) => r.id)
  const [mailStates, pushStates, skips, units] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select(['message_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('message_id', 'in', ids)
      .groupBy(['message_id', 'state'])
      .execute(),
    pushStatesOf(db, ids),
    db
      .selectFrom('message_skips')
      .select(['message_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('message_id', 'in', ids)
      .groupBy('message_id')
      .execute(),
    db.selectFrom('units').select(['id', 'slug']).execute(),
  ])
  const states = [...mailStates, ...pushStates]
  return rows.map((row) => {
    const count = (...wanted: string[]) =>
      states.filter((s) => s.message_id === row.id && wanted.includes(s.state)).reduce((sum, s) => sum + Number(s.n), 0)
    const { words, ...audience } = JSON.parse(row.audience) as AudienceInput & { words: string }
    const unitIds = JSON.parse(row.unit_ids) as number[]
    return {
      id: row.id,
      created_at: row.created_at,
      sent_by: row.sent_by,
      subject: row.subject,
      body: row.body,
      audience,
      audience_words: words,
      units: units.filter((u) => unitIds.includes(u.id)).map((u) => u.slug),
      urgent: row.urgent === 1,
      recipients: row.recipients,
      deliveries_by_state: {
        queued: count('queued', 'sending'),
        sent: count('sent'),
        failed: count('failed'),
        skipped: Number(skips.find((s) => s.message_id === row.id)?.n ?? 0),
      },
    }
  })
}
