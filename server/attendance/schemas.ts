// Attendance's API shapes: who is listed for an event (scouts and adults, with who signed up and who came), and a change.
import { EVENT_KINDS } from '../calendar/event.ts'
import { DateString, Id, Line, Nullable, OneOf, t } from '../schemas.ts'

/** The event in the path: a one-time event's uid, or one occurrence of a repeating event as `<uid>#<date>` (`#` sent as %23). */
export const AttendanceKey = t.Object({
  uid: Line(320, {
    minLength: 1,
    description: 'The event uid; for a repeating event, one occurrence as <uid>#<date> (the # sent as %23)',
    examples: ['9b2c1e4a-2f0e-4c55-9f0b-3d1f6c7a8e21@scouting-units-site#2027-01-12'],
  }),
})

const scoutFields = {
  scout_id: Id,
  name: t.String(),
  unit: OneOf(['pack', 'troop'] as const, { description: 'The scout’s unit when marked (now, until marked)' }),
  den: Nullable(t.String()),
}

const AttendanceScout = t.Object(
  {
    ...scoutFields,
    signed_up: t.Boolean({ description: 'A confirmed yes names this scout (or, scouts only counted, its household said yes)' }),
    present: t.Boolean({ description: 'Marked as having come; false until marked' }),
  },
  { additionalProperties: false },
)

const AttendanceAdult = t.Object(
  {
    name: t.String(),
    signed_up: t.Boolean({ description: 'A parent of a household whose confirmed yes counts this many adults' }),
    present: t.Boolean(),
  },
  { additionalProperties: false },
)

export const Attendance = t.Object(
  {
    uid: t.String({ description: 'The attendance key: the event uid, with #<date> for an occurrence of a repeating event' }),
    event_uid: t.String({ description: 'The event uid alone' }),
    date: DateString,
    title: t.String(),
    unit: OneOf(['pack', 'troop', 'both'] as const),
    kind: Nullable(OneOf(EVENT_KINDS)),
    nights: t.Integer(),
    service_hours: t.Number(),
    miles: t.Number(),
    started: t.Boolean({ description: 'Whether the event has started: attendance can be taken from then on' }),
    signup: t.Boolean({ description: 'The event asked for replies; otherwise every active scout of its units is listed' }),
    scouts: t.Array(AttendanceScout, {
      description:
        'Confirmed sign-ups (or the units’ active scouts when the event asked for none) and anyone already marked, by name; only the units you lead',
    }),
    others: t.Array(t.Object(scoutFields, { additionalProperties: false }), {
      description: 'The other active scouts of the event’s units you lead, to mark a scout who came without signing up',
    }),
    adults: t.Array(AttendanceAdult, { description: 'Parents of confirmed yes households and adults already marked, by name' }),
    recorded_at: Nullable(t.String({ format: 'date-time', description: 'When attendance was last marked' })),
    recorded_by: Nullable(t.String()),
  },
  {
    $id: 'Attendance',
    additionalProperties: false,
    examples: [
      {
        uid: '9b2c1e4a@scouting-units-site',
        event_uid: '9b2c1e4a@scouting-units-site',
        date: '2027-01-15',
        title: 'Winter campout',
        unit: 'troop',
        kind: 'campout',
        nights: 2,
        service_hours: 0,
        miles: 3,
        started: true,
        signup: true,
        scouts: [{ scout_id: 31, name: 'Alex Rivera', unit: 'troop', den: null, signed_up: true, present: true }],
        others: [{ scout_id: 32, name: 'Jo Lee', unit: 'troop', den: 'Eagle Patrol' }],
        adults: [{ name: 'Dana Rivera', signed_up: true, present: true }],
        recorded_at: '2027-01-17T14:02:11.000Z',
        recorded_by: 'leader@example.org',
      },
    ],
  },
)

export const AttendanceBody = t.Object(
  {
    scouts: t.Array(t.Object({ scout_id: Id, present: t.Boolean() }, { additionalProperties: false }), {
      maxItems: 500,
      description: 'Scouts to mark; the ones not sent stay as they are (one tap sends one scout)',
    }),
    adults: t.Optional(
      t.Array(t.Object({ name: Line(100, { minLength: 1 }), present: t.Boolean() }, { additionalProperties: false }), {
        maxItems: 200,
        description: 'Adults to mark, by name; the ones not sent stay as they are',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ scouts: [{ scout_id: 31, present: true }], adults: [{ name: 'Dana Rivera', present: true }] }],
  },
)
