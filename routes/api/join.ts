// POST /api/join: the public join form (JSON or form post), rate-limited per address, with a honeypot.
import { tooMany, unprocessable } from '../../server/errors.ts'
import { record } from '../../server/history/record.ts'
import { configuredTargets } from '../../server/leads/mirrors.ts'
import { defineRoute } from '../../server/routes.ts'
import { nowIso, t } from '../../server/schemas.ts'

const optional = (max: number) => t.Optional(t.String({ maxLength: max }))

export const POST = defineRoute({
  auth: 'public',
  summary: 'Send the join form; creates a lead and copies it to the configured targets',
  body: t.Object(
    {
      parent_name: t.String({ minLength: 1, maxLength: 100, error: 'is required: your name' }),
      email: t.Optional(t.String({ maxLength: 254 })),
      phone: optional(40),
      scout_name: optional(100),
      scout_grade: optional(30),
      unit: t.Optional(t.Union([t.Literal('pack'), t.Literal('troop'), t.Literal('unsure')], { error: 'must be pack, troop or unsure' })),
      message: optional(2000),
      website: optional(500),
    },
    { additionalProperties: false },
  ),
  async handler({ db, body, address, request, set, joinLimiter, mirrorLead }) {
    const wait = joinLimiter.hit(address ?? 'unknown')
    if (wait) throw tooMany('Too many sign-ups from your address; please try again later', wait)
    const form = (request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')
    const answer = () => {
      if (!form) return { received: true }
      set.status = 303
      set.headers.location = '/join/thanks/'
      return ''
    }
    // A filled honeypot is a bot: accept it silently and keep it apart from the leads.
    if (body.website?.trim()) {
      await db
        .insertInto('join_spam')
        .values({ at: nowIso(), address, payload: JSON.stringify(body).slice(0, 5000) })
        .execute()
      set.status = 201
      return answer()
    }
    const clean = (v: string | undefined) => v?.trim() || null
    const email = clean(body.email)?.toLowerCase() ?? null
    const phone = clean(body.phone)
    if (!body.parent_name.trim()) throw unprocessable('parent_name: is required: your name')
    if (!email && !phone) throw unprocessable('email: give an email address or a phone number so we can reach you')
    if (email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw unprocessable('email: must be an email address')
    if (phone && !/^[0-9+()\-.\s]{7,40}$/.test(phone)) throw unprocessable('phone: must be a phone number')
    const targets = await configuredTargets(db)
    const lead = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('leads')
        .values({
          created_at: nowIso(),
          parent_name: body.parent_name.trim(),
          email,
          phone,
          scout_name: clean(body.scout_name),
          scout_grade: clean(body.scout_grade),
          unit: body.unit ?? 'unsure',
          message: clean(body.message),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      for (const target of targets)
        await trx.insertInto('mirror_copies').values({ lead_id: row.id, target, status: 'pending', attempts: 0 }).execute()
      await record(trx, 'anonymous', 'leads.create', `New lead #${row.id} from the join form (${body.unit ?? 'unsure'})`)
      return row
    })
    if (targets.length) mirrorLead(lead.id)
    set.status = 201
    return answer()
  },
})
