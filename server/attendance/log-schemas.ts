// The shapes of a scout's log and of the unit's attendance report.
import { EVENT_KINDS } from '../calendar/event.ts'
import { DateString, Line, Nullable, OneOf, t } from '../schemas.ts'

const Totals = t.Object(
  {
    nights: t.Integer({ description: 'Camping nights' }),
    service_hours: t.Number(),
    miles: t.Number(),
    meetings: t.Integer({ description: 'Meetings attended' }),
  },
  { additionalProperties: false },
)

export const LogEntry = t.Object(
  {
    uid: t.String({ description: 'The event; `<uid>#<date>` for one meeting of a repeating event' }),
    title: t.String({ description: 'The event’s title, or that the calendar no longer holds it (it then counts for nothing)' }),
    date: DateString,
    end: t.Optional({ ...DateString, description: 'The last day, for an event over several days' }),
    unit: t.String({ description: 'The scout’s unit when they came (pack or troop)' }),
    kind: Nullable(OneOf(EVENT_KINDS)),
    nights: t.Integer(),
    service_hours: t.Number(),
    miles: t.Number(),
  },
  { additionalProperties: false },
)

const LOG_EXAMPLE = {
  scout_id: 9,
  entries: [
    {
      uid: '9b2c1e4a-2f0e-4c55-9f0b-3d1f6c7a8e21@scouting-units-site',
      title: 'Winter campout',
      date: '2026-12-04',
      end: '2026-12-06',
      unit: 'troop',
      kind: 'campout',
      nights: 2,
      service_hours: 0,
      miles: 3.5,
    },
  ],
  totals: {
    program_year: { nights: 2, service_hours: 0, miles: 3.5, meetings: 0 },
    all_time: { nights: 5, service_hours: 4, miles: 3.5, meetings: 12 },
  },
}

export const ScoutLog = t.Object(
  {
    scout_id: t.Integer(),
    entries: t.Array(LogEntry, { description: 'Every event the scout came to, newest first' }),
    totals: t.Object(
      {
        program_year: { ...Totals, description: 'This program year (from the month setting roster.year_start_month)' },
        all_time: Totals,
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ScoutLog', additionalProperties: false, examples: [LOG_EXAMPLE] },
)

export const AttendanceReportQuery = t.Object({
  unit: t.Optional(Line(50, { description: 'pack or troop (slug or id); every unit you lead without it', examples: ['troop'] })),
  from: t.Optional({ ...DateString, description: 'The first day counted; the program year’s first day without it' }),
  to: t.Optional({ ...DateString, description: 'The last day counted; today without it' }),
})

export const AttendanceReport = t.Object(
  {
    from: DateString,
    to: DateString,
    scouts: t.Array(
      t.Object(
        {
          scout_id: t.Integer(),
          name: t.String(),
          unit: t.String({ description: 'The scout’s unit now' }),
          den: Nullable(t.String()),
          meetings_held: t.Integer({ description: 'Meetings in the period at which attendance was taken for the scout’s unit' }),
          meetings_attended: t.Integer(),
          events_attended: t.Integer({ description: 'Other events (campouts, hikes, service…) the scout came to' }),
          share: Nullable(t.Number({ description: 'meetings_attended / meetings_held, 0 to 1; null when none was held' })),
          last_attended: Nullable({ ...DateString, description: 'The day of the last event of any kind the scout came to, ever' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The scouts of active households in the unit(s), by unit then name' },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        from: '2026-08-01',
        to: '2026-11-28',
        scouts: [
          {
            scout_id: 9,
            name: 'Jamie Hale',
            unit: 'troop',
            den: 'Eagle Patrol',
            meetings_held: 14,
            meetings_attended: 11,
            events_attended: 3,
            share: 0.79,
            last_attended: '2026-11-24',
          },
        ],
      },
    ],
  },
)
