// What the reply card tells beyond the reply form: when the event ends (a multi-day event as one range), what it is
// about, and, when it costs something, how to pay (the payments.instructions setting, Markdown rendered and sanitised).
import type { Executor } from '../db/database.ts'
import { renderMarkdown } from '../mail/markdown.ts'
import { Nullable, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { firstOccurrence } from './event.ts'
import { signupOf } from './signup.ts'

export const CardDetails = t.Object(
  {
    end_date: Nullable(t.String({ format: 'date', description: 'The last day of a multi-day event; null for one day' })),
    end_time: Nullable(t.String({ description: 'When it ends' })),
    description: Nullable(t.String({ description: 'What the event is about, as the calendar says it' })),
    payment_instructions: Nullable(
      t.String({ description: 'With signup.cost_cents: how to pay (the payments.instructions setting), as sanitised HTML' }),
    ),
  },
  { additionalProperties: false, description: 'The event as the reply card shows it' },
)

/** The card's details of one event, from the calendar copy the site keeps. */
export async function cardDetails(
  db: Executor,
  event: { uid: string; date: string; signup: string | null },
): Promise<typeof CardDetails.static> {
  const [object, timeZone, instructions] = await Promise.all([
    db.selectFrom('calendar_objects').select('ics').where('uid', '=', event.uid).executeTakeFirst(),
    getSetting(db, 'site.timezone'),
    getSetting(db, 'payments.instructions'),
  ])
  const first = object ? firstOccurrence(object.ics, timeZone) : undefined
  const costs = signupOf(event)?.cost_cents !== undefined
  return {
    end_date: first?.end && first.end !== first.date ? first.end : null,
    end_time: first?.end_time ?? null,
    description: first?.description?.trim() || null,
    payment_instructions: costs && instructions ? renderMarkdown(instructions) : null,
  }
}
