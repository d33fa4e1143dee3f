// The shapes of replies and sign-ups as the API takes and answers them: a household's reply, the headcounts, one reply
// as leaders and families see it, an event with its replies, and its reminders.
import { REMINDER_KINDS, RSVP_ANSWERS, RSVP_STATUSES } from './tables.ts'
import { Instant, Line, Nullable, OneOf, t } from '../schemas.ts'
import { Money, ReplySignupFields, Signup } from './signup.ts'
import { CardDetails } from './reply-card.ts'
import { NotAnswered } from './not-answered.ts'
import { SplitField } from './split.ts'

export const RsvpBody = t.Object(
  {
    answer: OneOf(RSVP_ANSWERS, { description: 'Coming, perhaps, or not' }),
    adults: t.Integer({ minimum: 0, maximum: 20, description: 'How many adults come' }),
    scouts: t.Integer({ minimum: 0, maximum: 20, description: 'How many scouts (and siblings) come' }),
    note: t.Optional(Line(300, { description: 'For the leaders: a late arrival, a food allergy to plan for' })),
    household_id: t.Optional(
      t.Integer({ minimum: 1, description: 'Which of your households answers; needed when you have more than one' }),
    ),
    ...ReplySignupFields,
    ...SplitField,
  },
  {
    additionalProperties: false,
    examples: [
      { answer: 'yes', adults: 1, scouts: 2, note: 'We arrive at 10:30' },
      {
        answer: 'yes',
        adults: 1,
        scouts: 1,
        scout_ids: [31],
        permission: { signed_name: 'Dana Rivera' },
        slots: [{ name: 'Driver (4 seats)', count: 1 }],
      },
      { answer: 'yes', adults: 1, scouts: 3, scout_ids: [33, 31, 32], split: true },
    ],
  },
)

const Headcount = t.Object(
  { households: t.Integer(), adults: t.Integer(), scouts: t.Integer() },
  { additionalProperties: false, description: 'How many households gave this answer, with the adults and scouts they named' },
)

export const RsvpTotals = t.Object(
  {
    yes: { ...Headcount, description: 'Coming: yes replies with a place (a yes waiting for one is under waitlisted)' },
    maybe: Headcount,
    no: Headcount,
    waitlisted: t.Optional({ ...Headcount, description: 'With signup.capacity: yes replies waiting for a place, not counted as coming' }),
  },
  {
    $id: 'RsvpTotals',
    additionalProperties: false,
    examples: [
      {
        yes: { households: 9, adults: 11, scouts: 14 },
        maybe: { households: 2, adults: 2, scouts: 3 },
        no: { households: 1, adults: 0, scouts: 0 },
      },
    ],
  },
)

const REPLY_EXAMPLE = {
  household_id: 12,
  household: 'Dana Rivera',
  answer: 'yes' as const,
  adults: 1,
  scouts: 2,
  note: 'We arrive at 10:30',
  answered_by: 'dana@example.org',
  answered_at: '2026-11-20T19:04:05.000Z',
  status: 'confirmed' as const,
  scout_ids: [31, 32],
  waitlisted_scouts: 0,
  waitlisted_scout_ids: [],
  permission: { signed_name: 'Dana Rivera', signed_at: '2026-11-20T19:04:05.000Z', current: true },
  slots: [{ name: 'Driver (4 seats)', count: 1 }],
  owed_cents: 7000,
  paid_cents: 0,
  balance_cents: 7000,
}

export const RsvpView = t.Object(
  {
    household_id: t.Integer(),
    household: t.String({ description: "The household's parent name" }),
    answer: OneOf(RSVP_ANSWERS),
    adults: t.Integer(),
    scouts: t.Integer(),
    note: Nullable(t.String()),
    answered_by: t.String({ description: 'Who answered last' }),
    answered_at: Instant,
    status: OneOf(RSVP_STATUSES, {
      description:
        'A yes is confirmed, or waitlisted while the places (signup.capacity) are taken; it moves up by itself in the order answered. ' +
        'A split yes is confirmed with some of its scouts still waiting (waitlisted_scouts)',
    }),
    scout_ids: Nullable(
      t.Array(t.Integer(), { description: 'The scouts coming, with signup.per_scout (in the order chosen for a split yes)' }),
    ),
    waitlisted_scouts: t.Integer({
      description:
        'How many of `scouts` wait for a place: all of a waitlisted yes, the rest of a split one (`split: true`, still confirmed), else 0',
    }),
    waitlisted_scout_ids: Nullable(
      t.Array(t.Integer(), { description: 'With signup.per_scout: which of scout_ids wait (the last ones); the others are confirmed' }),
    ),
    permission: Nullable(
      t.Object(
        {
          signed_name: t.String(),
          signed_at: Instant,
          current: t.Boolean({ description: 'Signed on the slip as it reads now; false when a leader changed it since (sign again)' }),
        },
        { additionalProperties: false },
      ),
    ),
    slots: t.Array(t.Object({ name: t.String(), count: t.Integer() }, { additionalProperties: false }), {
      description: 'The slots the household volunteered for',
    }),
    owed_cents: t.Optional(t.Integer({ description: 'With signup.cost_cents: the cost of each scout confirmed' })),
    paid_cents: t.Optional(t.Integer({ description: 'What a leader recorded as paid' })),
    balance_cents: t.Optional(t.Integer({ description: 'Owed minus paid' })),
  },
  { $id: 'Rsvp', additionalProperties: false, examples: [REPLY_EXAMPLE] },
)

const eventFacts = {
  uid: t.String(),
  title: t.String(),
  unit: OneOf(['pack', 'troop', 'both'] as const, { description: 'Whose event it is: scouts of this unit (either for both) may come' }),
  date: t.String({ format: 'date' }),
  time: Nullable(t.String({ description: 'Start time; null for an all-day event' })),
  location: Nullable(t.String()),
  asking: t.Boolean({ description: 'The event asks for replies (a leader may stop asking; the replies stay)' }),
  open: t.Boolean({ description: 'Replies can be given or changed now: asking, not started, still in the calendar' }),
  gone_at: Nullable({ ...Instant, description: 'When the event was deleted from the calendar; its replies are kept 30 days' }),
  signup: Nullable(Signup),
  places: t.Optional(
    t.Object(
      {
        capacity: t.Integer(),
        confirmed: t.Integer({ description: 'Scouts confirmed' }),
        waitlisted: t.Integer({ description: 'Scouts waiting for a place' }),
        left: t.Integer({ description: 'Places still free' }),
      },
      { additionalProperties: false, description: 'With signup.capacity' },
    ),
  ),
  slots: t.Array(t.Object({ name: t.String(), needed: t.Integer(), filled: t.Integer() }, { additionalProperties: false }), {
    description: 'Each volunteer slot with how many have taken it',
  }),
}
const EVENT_EXAMPLE = {
  uid: '9b2c1e4a@scouting-units-site',
  title: 'Pinewood derby',
  unit: 'pack',
  date: '2026-12-05',
  time: '10:00',
  location: 'School gym',
  asking: true,
  open: true,
  gone_at: null,
  signup: null,
  slots: [],
}

export const Reminder = t.Object(
  {
    kind: OneOf(REMINDER_KINDS, {
      description:
        'before_start: yes and maybe households, 24 h before the start; before_close: households not answered, 48 h before signup.closes_at',
    }),
    due_at: Instant,
    reminded: t.Integer({ description: 'Households reminded (by mail)' }),
    to_remind: t.Array(t.String(), {
      description: 'Households due a reminder that has not gone: without mail set up, for a leader to call or text',
    }),
  },
  { additionalProperties: false },
)

export const RsvpList = t.Object(
  {
    ...eventFacts,
    totals: t.Optional(RsvpTotals),
    money: t.Optional({ ...Money, description: 'For leaders, with signup.cost_cents: the totals over every household' }),
    reminders: t.Optional(
      t.Array(Reminder, { description: 'For leaders, while the event is ahead: when each reminder falls due, and who is still due one' }),
    ),
    replies: t.Array(RsvpView, { description: "Every household's reply for leaders; your own households' otherwise" }),
    not_answered: t.Optional(NotAnswered),
    not_answered_count: t.Optional(t.Integer({ description: 'For leaders: how many households have not answered' })),
  },
  { additionalProperties: false, examples: [{ ...EVENT_EXAMPLE, totals: RsvpTotals.examples[0], replies: [REPLY_EXAMPLE] }] },
)

export const FamilyRsvpEvent = t.Object(
  { ...eventFacts, details: CardDetails, replies: t.Array(RsvpView, { description: "Your households' replies" }) },
  {
    $id: 'FamilyRsvpEvent',
    additionalProperties: false,
    examples: [
      {
        ...EVENT_EXAMPLE,
        details: { end_date: null, end_time: '12:00', description: null, payment_instructions: null },
        replies: [REPLY_EXAMPLE],
      },
    ],
  },
)

export const DeletedWithReplies = t.Object(
  { uid: t.String(), title: t.String(), date: t.String({ format: 'date' }), gone_at: Instant, totals: RsvpTotals },
  { additionalProperties: false },
)
