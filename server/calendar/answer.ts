// Keeping a household's reply, whoever gives it: a family signed in (PUT …/rsvps) or anyone holding the household's
// reply link from a mail (PUT /api/reply/<token>). The same rules either way: sign-up closed, scouts of the household,
// the permission slip, slots, places and the waitlist; each reply in the action log under `actor`.
import type { Selectable } from 'kysely'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { conflict } from '../errors.ts'
import { nowIso } from '../schemas.ts'
import { siteTime } from '../settings/registry.ts'
import { eventWords, plural, replyWords } from '../words.ts'
import type { RsvpBody } from './rsvp-schemas.ts'
import { moveUp, needsSignature, placeReply, replyParts, signupClosed, signupOf, takeSlots } from './signup.ts'
import { queueSignupMail, type SignupMail } from './signup-mail.ts'
import type { RsvpEventTable } from './tables.ts'
import { confirmedPlaces, settleTripFees, type TripEvent } from '../money/trip-fees.ts'

/** Refuses (409) a reply once the event has started or its sign-up closed, saying which. */
export async function assertOpen(db: Executor, facts: { open: boolean; signup: ReturnType<typeof signupOf> }, refuse = conflict) {
  if (facts.open) return
  throw refuse(
    signupClosed(facts.signup)
      ? `Replies are closed: they closed ${await siteTime(db, facts.signup!.closes_at!)}`
      : 'Replies are closed: the event has started',
  )
}

/** Writes `household`'s answer to an open event, with its action-log entry and any waitlist moves, in one transaction. */
export async function saveAnswer(
  db: Db,
  actor: string,
  event: Selectable<RsvpEventTable>,
  household: number,
  body: typeof RsvpBody.static,
  context: { address: string | null; mail: SignupMail },
) {
  const { uid } = event
  const signup = signupOf(event)
  const parts = await replyParts(db, { unit: event.unit, signup }, household, body)
  const now = nowIso()
  const reply = {
    answer: body.answer,
    adults: body.adults,
    scouts: body.scouts,
    note: body.note?.trim() || null,
    answered_by: actor,
    answered_at: now,
    scout_ids: parts.scoutIds ? JSON.stringify(parts.scoutIds) : null,
  }
  await write(db, async (trx) => {
    const previous = await trx
      .selectFrom('rsvps')
      .select(['answer', 'status', 'queued_at', 'scouts', 'waiting', 'scout_ids'])
      .where('uid', '=', uid)
      .where('household_id', '=', household)
      .executeTakeFirst()
    await needsSignature(trx, uid, household, signup, body)
    const place = await placeReply(trx, uid, household, signup?.capacity, previous, { ...reply, split: body.split }, now)
    await trx
      .insertInto('rsvps')
      .values({ uid, household_id: household, ...reply, ...place })
      .onConflict((oc) => oc.columns(['uid', 'household_id']).doUpdateSet({ ...reply, ...place }))
      .execute()
    if (body.permission && signup?.permission_text) {
      const signed = {
        text: signup.permission_text,
        signed_name: body.permission.signed_name.trim(),
        signed_by: actor,
        signed_at: now,
        address: context.address ?? 'unknown',
      }
      await trx
        .insertInto('rsvp_permissions')
        .values({ uid, household_id: household, ...signed })
        .onConflict((oc) => oc.columns(['uid', 'household_id']).doUpdateSet(signed))
        .execute()
    }
    if (parts.slots) await takeSlots(trx, uid, household, signup, parts.slots)
    const name = (await trx.selectFrom('households').select('parent_name').where('id', '=', household).executeTakeFirstOrThrow())
      .parent_name
    const trip = { ...event, signup }
    const movedSelf = await moveWaitlistUp(trx, actor, trip, context.mail, household)
    const status = movedSelf || place.status === 'confirmed' ? 'confirmed' : 'waitlisted'
    const waits =
      body.answer !== 'yes' ? '' : status === 'waitlisted' ? ' (waitlisted)' : place.waiting ? ` (${place.waiting} waitlisted)` : ''
    await record(
      trx,
      actor,
      'calendar.rsvp',
      `${name}: ${replyWords(reply)}${waits} for ${eventWords(event)}` +
        (body.permission ? `, permission signed as “${body.permission.signed_name.trim()}”` : ''),
    )
    // Trip fees follow the scouts confirmed; a reply to a free event that held no place has none to settle.
    const before = confirmedPlaces(previous)
    if (signup?.cost_cents || before.length) {
      const now = await trx
        .selectFrom('rsvps')
        .select(['answer', 'status', 'scouts', 'waiting', 'scout_ids'])
        .where('uid', '=', uid)
        .where('household_id', '=', household)
        .executeTakeFirst()
      await settleTripFees(trx, actor, trip, household, before, confirmedPlaces(now))
    }
  })
}

/**
 * Confirms whoever the free places now fit from the waitlist, each in the history, charged its trip fees and mailed,
 * except `replier`: the household whose own answer confirmed it. Answers whether the replier moved up.
 */
export async function moveWaitlistUp(
  trx: Executor,
  actor: string,
  event: TripEvent & { time: string | null },
  mail: SignupMail,
  replier?: number,
): Promise<boolean> {
  const moved = await moveUp(trx, event.uid, event.signup?.capacity)
  const others = moved.filter((m) => m.household_id !== replier)
  for (const m of others) {
    await record(
      trx,
      actor,
      'calendar.rsvp_moved_up',
      `${m.parent_name}${m.rest ? `: ${plural(m.scouts, 'scout')} (${m.rest} still waiting)` : ''} moved up from the waitlist for ${eventWords(event)}`,
    )
    const after = { ...m.before, answer: 'yes', status: 'confirmed', waiting: m.rest }
    await settleTripFees(trx, actor, event, m.household_id, confirmedPlaces({ ...m.before, answer: 'yes' }), confirmedPlaces(after))
  }
  for (const [kind, some] of [
    ['moved_up', false],
    ['moved_up_some', true],
  ] as const)
    await queueSignupMail(
      trx,
      mail,
      kind,
      event,
      others.filter((m) => !!m.rest === some).map((m) => m.household_id),
    )
  return others.length < moved.length
}
