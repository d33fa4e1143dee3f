// The public join form: a lead stored with its owed copies, or a filled honeypot stored apart as spam.
import type { Db } from '../db/client.ts'
import { LEAD_UNITS } from './tables.ts'
import { record, write } from '../db/write.ts'
import { unprocessable } from '../errors.ts'
import { EMAIL_PATTERN } from '../formats.ts'
import { Line, Lines, nowIso, OneOf, t } from '../schemas.ts'
import { queueLeadAlerts } from './lead-alerts.ts'
import { configuredTargets } from './mirrors.ts'

export const JoinForm = t.Object(
  {
    parent_name: Line(100, { minLength: 1, description: 'The parent or guardian' }),
    email: t.Optional(Line(254, { description: 'An email address or a phone number is needed' })),
    phone: t.Optional(Line(40)),
    scout_name: t.Optional(Line(100)),
    scout_grade: t.Optional(Line(30)),
    unit: t.Optional(OneOf(LEAD_UNITS, { description: 'Which unit the family is interested in; unsure by default' })),
    message: t.Optional(Lines(2000)),
    website: t.Optional(Line(500, { description: 'Leave empty: a honeypot for bots' })),
  },
  {
    additionalProperties: false,
    examples: [{ parent_name: 'Robin Hale', email: 'robin.hale@example.org', scout_name: 'Jamie', scout_grade: '2', unit: 'pack' }],
  },
)

export const Received = t.Object({ received: t.Literal(true) }, { additionalProperties: false, examples: [{ received: true }] })

const clean = (v: string | undefined) => v?.trim() || null

/**
 * Stores what the family sent, with the alerts to the unit's leaders when `alerts` says where the site is (mail is
 * set up); the new lead's id, whether copies are owed, and how many alerts were queued (none for spam).
 */
export async function receiveJoinForm(
  db: Db,
  input: typeof JoinForm.static,
  address: string | null,
  alerts: { publicBaseUrl: string } | null,
): Promise<{ id: number; copies: boolean; alerts: number } | null> {
  // A filled honeypot is a bot: accepted silently and kept apart from the leads.
  if (input.website?.trim()) {
    await write(db, async (trx) => {
      await trx
        .insertInto('join_spam')
        .values({ at: nowIso(), address, payload: JSON.stringify(input).slice(0, 5000) })
        .execute()
      await record(trx, 'anonymous', 'leads.spam', `A join form with the honeypot filled, from ${address ?? 'unknown'}`)
    })
    return null
  }
  const email = clean(input.email)?.toLowerCase() ?? null
  const phone = clean(input.phone)
  if (!input.parent_name.trim()) throw unprocessable('parent_name: is required')
  if (!email && !phone) throw unprocessable('email: is needed, or a phone number, so we can reach you')
  if (email && !EMAIL_PATTERN.test(email)) throw unprocessable('email: must be an email address')
  if (phone && !/^[0-9+()\-.\s]{7,40}$/.test(phone)) throw unprocessable('phone: must be a phone number')
  const targets = await configuredTargets(db)
  return write(db, async (trx) => {
    const row = await trx
      .insertInto('leads')
      .values({
        created_at: nowIso(),
        parent_name: input.parent_name.trim(),
        email,
        phone,
        scout_name: clean(input.scout_name),
        scout_grade: clean(input.scout_grade),
        unit: input.unit ?? 'unsure',
        message: clean(input.message),
      })
      .returning(['id', 'unit'])
      .executeTakeFirstOrThrow()
    for (const target of targets)
      await trx.insertInto('mirror_copies').values({ lead_id: row.id, target, status: 'pending', attempts: 0 }).execute()
    await record(
      trx,
      'anonymous',
      'leads.create',
      `${input.parent_name.trim()} sent the join form (${input.unit === 'pack' || input.unit === 'troop' ? `for the ${input.unit}` : 'not sure which unit'})`,
    )
    const queued = alerts ? await queueLeadAlerts(trx, row, alerts.publicBaseUrl) : 0
    return { id: row.id, copies: targets.length > 0, alerts: queued }
  })
}
