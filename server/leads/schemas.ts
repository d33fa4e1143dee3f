// The leads API's shapes: one lead as shown, with its copies, and the list's query and page.
import { NextCursor, PageQuery } from '../http/paging.ts'
import { Instant, Line, Nullable, OneOf, t } from '../schemas.ts'
import { LEAD_UNITS, MIRROR_STATUSES } from './tables.ts'

const EXAMPLE = {
  id: 31,
  created_at: '2026-11-22T20:14:00.000Z',
  parent_name: 'Robin Hale',
  email: 'robin.hale@example.org',
  phone: null,
  scout_name: 'Jamie',
  scout_grade: '2',
  unit: 'pack',
  message: 'Can we visit a meeting first?',
  claimed_at: '2026-11-23T08:01:00.000Z',
  claimed_by: { id: 3, email: 'akela@example.org' },
  household_id: null,
}

export const LeadView = t.Object(
  {
    id: t.Integer(),
    created_at: Instant,
    parent_name: t.String(),
    email: Nullable(t.String()),
    phone: Nullable(t.String()),
    scout_name: Nullable(t.String()),
    scout_grade: Nullable(t.String()),
    unit: OneOf(LEAD_UNITS),
    message: Nullable(t.String()),
    claimed_at: Nullable(Instant),
    claimed_by: Nullable(
      t.Object({ id: t.Integer(), email: t.String() }, { additionalProperties: false, description: 'Who holds the lead' }),
    ),
    household_id: Nullable(t.Integer({ description: 'The roster household made from this lead, once it is added to the roster' })),
  },
  { $id: 'Lead', additionalProperties: false, examples: [EXAMPLE] },
)

export const LeadAnswer = t.Object({ lead: LeadView }, { additionalProperties: false, examples: [{ lead: EXAMPLE }] })

export const MirrorCopy = t.Object(
  {
    target: t.Literal('spreadsheet'),
    status: OneOf(MIRROR_STATUSES),
    attempts: t.Integer(),
    last_attempt_at: Nullable(Instant),
    error: Nullable(t.String()),
  },
  { additionalProperties: false },
)

export const LeadDetail = t.Object(
  { lead: t.Object({ ...LeadView.properties, mirrors: t.Array(MirrorCopy) }, { additionalProperties: false }) },
  {
    additionalProperties: false,
    examples: [
      {
        lead: {
          ...EXAMPLE,
          mirrors: [{ target: 'spreadsheet', status: 'ok', attempts: 1, last_attempt_at: '2026-11-22T20:14:01.000Z', error: null }],
        },
      },
    ],
  },
)

export const LeadQuery = t.Object({
  q: t.Optional(Line(200, { description: 'Case-insensitive text in the name, email, phone, message or scout name', examples: ['hale'] })),
  filter: t.Optional(
    OneOf(['all', 'unclaimed', 'mine'] as const, { description: 'all (default), unclaimed, or mine (held by the caller)' }),
  ),
  before_id: t.Optional(
    t.Integer({ minimum: 1, description: 'Older form of `cursor`: the `next_before_id` of the previous page', examples: [120] }),
  ),
  ...PageQuery,
})

export const LeadPage = t.Object(
  {
    leads: t.Array(LeadView, { description: 'Newest first' }),
    next_before_id: Nullable(
      t.Integer({ description: 'Older form of `next_cursor`: pass as `before_id` for the next page; null on the last' }),
    ),
    next_cursor: NextCursor,
  },
  { additionalProperties: false, examples: [{ leads: [EXAMPLE], next_before_id: null, next_cursor: null }] },
)
