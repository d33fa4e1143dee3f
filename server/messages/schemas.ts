// The shapes of the messages API: a new message, its preview, and the list and detail views with their deliveries.
import { UNIT_SLUGS } from '../units/tables.ts'
import { NextCursor, PageQuery } from '../http/paging.ts'
import { Id, Line, Lines, OneOf, t } from '../schemas.ts'
import { Audience } from './audience.ts'
import { SKIP_REASONS } from './tables.ts'

const Subject = Line(200, { minLength: 1, examples: ['Campout moved to Saturday'] })
const Body = Lines(20_000, {
  minLength: 1,
  description: 'Markdown; raw HTML is shown as text',
  examples: ['Meet at **8 AM** at the church.'],
})
const Urgent = t.Boolean({
  description: 'Reaches unsubscribed addresses too (a cancelled campout); logged as urgent',
  default: false,
})

export const NewMessage = t.Object(
  { subject: Subject, body: Body, audience: Audience, urgent: t.Optional(Urgent) },
  {
    additionalProperties: false,
    examples: [{ subject: 'Campout moved to Saturday', body: 'Meet at **8 AM**.', audience: { units: ['pack'] } }],
  },
)

export const PreviewRequest = t.Object(
  { audience: Audience, urgent: t.Optional(Urgent) },
  { additionalProperties: false, examples: [{ audience: { dens: [{ unit: 'pack', name: 'Wolf' }] } }] },
)

const SkipView = t.Object(
  { email: t.Union([t.String(), t.Null()]), who: t.String(), reason: OneOf(SKIP_REASONS) },
  { additionalProperties: false },
)

export const Preview = t.Object(
  {
    recipients: t.Integer({ description: 'How many addresses it would go to' }),
    emails: t.Array(t.String(), { description: 'The addresses, each once' }),
    skipped: t.Array(SkipView, { description: 'Households with no address, and unsubscribed addresses (unless urgent)' }),
    audience_words: t.String({ description: 'The audience in words' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        recipients: 2,
        emails: ['jordan@example.org', 'robin@example.org'],
        skipped: [{ email: 'sam@example.org', who: 'sam@example.org', reason: 'unsubscribed' }],
        audience_words: 'the Wolf den',
      },
    ],
  },
)

const Counts = t.Object(
  { queued: t.Integer(), sent: t.Integer(), failed: t.Integer(), skipped: t.Integer() },
  { additionalProperties: false, description: 'Deliveries by state' },
)

const messageFields = {
  id: Id,
  created_at: t.String({ format: 'date-time' }),
  sent_by: t.String({ description: 'The leader who sent it (replies go to them)' }),
  subject: t.String(),
  body: t.String({ description: 'Markdown, as written' }),
  audience: Audience,
  audience_words: t.String(),
  units: t.Array(OneOf(UNIT_SLUGS), { description: 'The units it went to: every leader of these sees it' }),
  urgent: t.Boolean(),
  recipients: t.Integer({ description: 'Addresses it was queued for' }),
  deliveries_by_state: Counts,
}
const EXAMPLE = {
  id: 7,
  created_at: '2026-11-24T18:04:05.000Z',
  sent_by: 'robin.hale@example.org',
  subject: 'Campout moved to Saturday',
  body: 'Meet at **8 AM** at the church.',
  audience: { dens: [{ unit: 'pack' as const, name: 'Wolf' }] },
  audience_words: 'the Wolf den',
  units: ['pack' as const],
  urgent: false,
  recipients: 12,
  deliveries_by_state: { queued: 0, sent: 11, failed: 0, skipped: 1 },
}
export const MessageView = t.Object(messageFields, { additionalProperties: false, examples: [EXAMPLE] })
export const MessageList = t.Object(
  { messages: t.Array(MessageView, { description: 'Newest first' }), next_cursor: NextCursor },
  { additionalProperties: false, examples: [{ messages: [EXAMPLE], next_cursor: null }] },
)

export const MessageDetail = t.Object(
  {
    ...messageFields,
    deliveries: t.Array(
      t.Object(
        {
          email: t.Union([t.String(), t.Null()], { description: 'Null for a household with no address' }),
          who: t.String({ description: 'The address, or the household it stands for' }),
          state: OneOf(['queued', 'sent', 'failed', 'skipped'] as const),
          channel: OneOf(['mail', 'push'] as const, {
            description: 'A mail to the address, or a notification to a device of that account',
          }),
          reason: t.Optional(t.String({ description: "Why it failed (the relay's answer) or was skipped" })),
          at: t.Optional(t.String({ format: 'date-time', description: 'When it was sent' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ...EXAMPLE,
        deliveries: [
          { email: 'parent@example.org', who: 'parent@example.org', state: 'sent', channel: 'mail', at: '2026-11-24T18:04:09.000Z' },
          { email: null, who: "Jordan Lee's household", state: 'skipped', channel: 'mail', reason: 'no address' },
        ],
      },
    ],
  },
)

export const MessageListQuery = t.Object(
  {
    ...PageQuery,
    before_id: t.Optional(
      t.Integer({ minimum: 1, description: 'Older form of `cursor`: messages older than this one (the last id seen)', examples: [12] }),
    ),
  },
  { additionalProperties: false },
)
