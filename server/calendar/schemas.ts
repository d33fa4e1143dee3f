// The calendar's API shapes: the event a leader writes, the event and the list the calendar answers, the uid in a path.
import { DateString, Instant, Line, Lines, Nullable, OneOf, t, Time24 } from '../schemas.ts'
import { EVENT_KINDS, REPEATS } from './event.ts'
import { DeletedWithReplies, RsvpTotals } from './rsvp-schemas.ts'
import { Signup } from './signup.ts'

/** What the admin calendar says while the CalDAV store does not answer (the shown events are the last good copy). */
export const UNREACHABLE = 'The calendar server is not answering; changes will be possible again when it is.'

const eventFields = {
  title: Line(200, { minLength: 1 }),
  date: DateString,
  unit: t.Optional(OneOf(['pack', 'troop', 'both'] as const, { description: 'Whose event it is; both by default' })),
  end: t.Optional({ ...DateString, description: 'The last day, for an event over several days' }),
  time: t.Optional({ ...Time24, description: 'Start time; absent means all day' }),
  end_time: t.Optional(Time24),
  location: t.Optional(Line(300)),
  badge: t.Optional(Line(100)),
  visibility: t.Optional(
    OneOf(['public', 'members'] as const, {
      description:
        'members: left out of the public calendar pages and feeds, shown to families (family page, digest, their private feed); public by default. Kept in CalDAV as CLASS:PRIVATE',
    }),
  ),
  description: t.Optional(Lines(5000)),
  repeat: t.Optional(
    OneOf(REPEATS, {
      description:
        'Repeats every week on the same weekday, monthly on the same date, or monthly on the same weekday (the 2nd Tuesday; a 5th weekday means the last one). Needs repeat_until.',
    }),
  ),
  repeat_until: t.Optional({ ...DateString, description: 'The last day a repeat may fall on, at most three years after date' }),
  skip_dates: t.Optional(
    t.Array(DateString, { maxItems: 200, description: 'Days the repeat does not happen; each must be one of its days' }),
  ),
  rsvp: t.Optional(
    t.Boolean({ description: 'Ask families to reply (one-time events only); false stops asking and keeps the replies given' }),
  ),
  signup: t.Optional(Signup),
  kind: t.Optional(
    OneOf(EVENT_KINDS, {
      description: 'What sort of event it is; meetings count toward active status. The only one of these four the public pages show',
    }),
  ),
  nights: t.Optional(t.Integer({ minimum: 0, maximum: 366, description: 'Camping nights each attendee earns' })),
  service_hours: t.Optional(t.Number({ minimum: 0, maximum: 1000, description: 'Service hours each attendee earns' })),
  miles: t.Optional(t.Number({ minimum: 0, maximum: 1000, description: 'Miles each attendee hikes, paddles or rides' })),
}

export const EventBody = t.Object(eventFields, {
  additionalProperties: false,
  examples: [
    { title: 'Pinewood derby', date: '2026-12-05', unit: 'pack', time: '10:00', location: 'School gym' },
    {
      title: 'Troop meeting',
      date: '2027-01-05',
      unit: 'troop',
      time: '19:00',
      repeat: 'weekly',
      repeat_until: '2027-05-25',
      skip_dates: ['2027-03-16'],
    },
  ],
})

const EVENT_EXAMPLE = {
  uid: '9b2c1e4a-2f0e-4c55-9f0b-3d1f6c7a8e21@scouting-units-site',
  title: 'Pinewood derby',
  date: '2026-12-05',
  unit: 'pack',
  time: '10:00',
  end_time: '11:30',
  location: 'School gym',
  mine: true,
}

export const EventView = t.Object(
  {
    uid: t.String(),
    ...eventFields,
    title: t.String(),
    unit: OneOf(['pack', 'troop', 'both'] as const),
    recurring: t.Optional(t.Boolean({ description: 'One occurrence of a repeating event' })),
    first_date: t.Optional({
      ...DateString,
      description: 'The day a repeating event the site can describe starts (date is this occurrence); a PUT sends it as date',
    }),
    mine: t.Boolean({ description: 'The site created it and may change or delete it' }),
    replies: t.Optional(RsvpTotals),
  },
  { $id: 'Event', additionalProperties: false, examples: [EVENT_EXAMPLE] },
)

export const EventListQuery = t.Object(
  {
    past_days: t.Optional(
      t.Integer({ minimum: 0, maximum: 62, description: 'Also list the events of this many days before today; 0 by default' }),
    ),
  },
  { additionalProperties: false },
)

export const EventList = t.Object(
  {
    configured: t.Boolean({ description: 'Whether writes are possible at all: always true (the site keeps events itself without CalDAV)' }),
    store: OneOf(['site', 'caldav'] as const, {
      description: 'Where events are kept: by the site itself (no CalDAV configured) or in the CalDAV collection',
    }),
    unreachable: t.Optional(
      t.Object(
        {
          detail: t.String({ description: 'A plain sentence for the page' }),
          copied_at: Nullable({ ...Instant, description: 'When the shown copy was last read from the store' }),
        },
        {
          additionalProperties: false,
          description:
            'Present when the CalDAV store did not answer or refused: the events are the last good copy, and writes answer 502 until it answers',
        },
      ),
    ),
    events: t.Array(EventView, {
      description: 'From the start of today (or past_days before it) to a year ahead, earliest first, repeats expanded',
    }),
    deleted_with_replies: t.Array(DeletedWithReplies, {
      description: 'Events that asked for replies and were deleted from the store: their replies stay readable for 30 days',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      { configured: true, store: 'site', events: [EVENT_EXAMPLE], deleted_with_replies: [] },
      {
        configured: true,
        store: 'caldav',
        unreachable: { detail: UNREACHABLE, copied_at: '2026-11-24T18:02:11.000Z' },
        events: [EVENT_EXAMPLE],
        deleted_with_replies: [],
      },
    ],
  },
)

export const Uid = t.Object({ uid: Line(300, { minLength: 1, description: 'The event uid', examples: [EVENT_EXAMPLE.uid] }) })
