// Taking attendance: who is listed for an event (confirmed sign-ups, or the units' active scouts when it asked for
// none, and anyone already marked), and marking who came once it has started, one scout or many at a time. On an
// event for both units each unit's leaders see and mark their own scouts; the adults are everyone's.
import type { Caller } from '../auth/credential.ts'
import { assertLeadsSlug, leadsSlug } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { forbidden, notFound, unprocessable } from '../errors.ts'
import { allOccurrences, type Occurrence } from '../calendar/event.ts'
import { waitingOf } from '../calendar/split.ts'
import { getSetting } from '../settings/registry.ts'
import { nowIso } from '../schemas.ts'
import { clockWords, dayWords, listWords, plural, scoutName } from '../words.ts'
import { parseAttendanceKey } from './occurrence.ts'
import type { AttendanceBody } from './schemas.ts'

type Slug = 'pack' | 'troop'
const unitsOf = (unit: Occurrence['unit']): Slug[] => (unit === 'both' ? ['pack', 'troop'] : [unit])

/**
 * The occurrence an attendance key names (a one-time event's uid, or `<uid>#<date>` for one occurrence of a repeating
 * event) with its uid: 404 when there is none, 422 for a repeating event named without its day.
 */
async function eventOf(db: Executor, key: string) {
  const occurrencesOf = async (uid: string) => {
    const object = await db.selectFrom('calendar_objects').select('ics').where('uid', '=', uid).executeTakeFirst()
    try {
      return object ? allOccurrences(object.ics, await getSetting(db, 'site.timezone')).sort((a, b) => a.start - b.start) : []
    } catch {
      return [] // not valid iCalendar (another client wrote it): no event the site can take attendance for
    }
  }
  const whole = await occurrencesOf(key)
  if (whole[0]?.recurring) throw unprocessable(`uid: "${whole[0].title}" repeats; name one occurrence as <uid>#<date>`, undefined, 'uid')
  if (whole[0]) return { uid: key, event: whole[0] }
  const { uid, date } = parseAttendanceKey(key)
  const event = date ? (await occurrencesOf(uid)).find((o) => o.recurring && o.date === date) : undefined
  if (!event) throw notFound('No such event (it may have been deleted), or the repeating event does not happen on that day')
  return { uid, event }
}

/** The units of the event the caller leads; 403 `unit_out_of_scope` when none. */
function ledUnitsOf(caller: Caller, event: Occurrence): Slug[] {
  assertLeadsSlug(caller, event.unit, `"${event.title}"`)
  return unitsOf(event.unit).filter((u) => leadsSlug(caller, u))
}

const scoutQuery = (db: Executor) =>
  db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .innerJoin('households', 'households.id', 'scouts.household_id')
    .select([
      'scouts.id',
      'scouts.household_id',
      'first_name',
      'preferred_name',
      'last_name',
      'den',
      'units.slug as unit',
      'households.active',
    ])

/** Who the event's confirmed yes replies bring: the scouts they name (or, counted only, their households) and adults by name. */
async function signUps(db: Executor, uid: string) {
  const asked = !!(await db.selectFrom('rsvp_events').select('uid').where('uid', '=', uid).executeTakeFirst())
  const rows = asked
    ? await db
        .selectFrom('rsvps')
        .innerJoin('households', 'households.id', 'rsvps.household_id')
        .select(['household_id', 'answer', 'status', 'scouts', 'waiting', 'scout_ids', 'adults', 'parent_name', 'second_parent'])
        .where('uid', '=', uid)
        .where('answer', '=', 'yes')
        .where('status', '=', 'confirmed')
        .execute()
    : []
  const named = new Set<number>()
  const households = new Set<number>()
  const adults: string[] = []
  for (const r of rows) {
    const ids = r.scout_ids ? (JSON.parse(r.scout_ids) as number[]) : null
    const waiting = waitingOf({ ...r, scout_ids: ids }).waitlisted_scout_ids ?? []
    if (ids) for (const id of ids.filter((id) => !waiting.includes(id))) named.add(id)
    else households.add(r.household_id)
    if (r.adults >= 1) adults.push(r.parent_name)
    if (r.adults >= 2 && r.second_parent) adults.push(r.second_parent)
  }
  return { asked, named, households, adults }
}

/** Who is listed for the event: the scouts (each with its unit as shown), the sign-ups, and what is marked already. */
async function listing(db: Executor, key: string, uid: string, event: Occurrence) {
  const signed = await signUps(db, uid)
  const marked = await db.selectFrom('attendance').selectAll().where('event_uid', '=', key).execute()
  const extra = [...signed.named, ...marked.map((m) => m.scout_id)]
  const rows = await scoutQuery(db)
    .where((w) =>
      w.or([
        w('units.slug', 'in', unitsOf(event.unit)),
        ...(extra.length ? [w('scouts.id', 'in', extra)] : []),
        ...(signed.households.size ? [w('scouts.household_id', 'in', [...signed.households])] : []),
      ]),
    )
    .execute()
  const marks = new Map(marked.map((m) => [m.scout_id, m]))
  const signedUp = (s: (typeof rows)[number]) =>
    signed.named.has(s.id) || (signed.households.has(s.household_id) && unitsOf(event.unit).includes(s.unit))
  const listed = (s: (typeof rows)[number]) => marks.has(s.id) || signedUp(s) || (!signed.asked && s.active === 1)
  return { rows, marks, signed, signedUp, listed }
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
const sameName = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase()

/** GET /api/admin/calendar/{uid}/attendance: who is listed and who is marked as having come. */
export async function attendanceOf(db: Executor, caller: Caller, key: string) {
  const { uid, event } = await eventOf(db, key)
  const led = ledUnitsOf(caller, event)
  const { rows, marks, signed, signedUp, listed } = await listing(db, key, uid, event)
  const unitOf = (s: (typeof rows)[number]) => (marks.get(s.id)?.unit ?? s.unit) as Slug
  const view = (s: (typeof rows)[number]) => ({ scout_id: s.id, name: scoutName(s), unit: unitOf(s), den: s.den })
  const scouts = rows
    .filter((s) => listed(s) && leadsSlug(caller, unitOf(s)))
    .map((s) => ({ ...view(s), signed_up: signedUp(s), present: marks.get(s.id)?.present === 1 }))
    .sort(byName)
  const others = rows
    .filter((s) => !listed(s) && s.active === 1 && led.includes(s.unit))
    .map(view)
    .sort(byName)
  const adultMarks = await db.selectFrom('attendance_adults').selectAll().where('event_uid', '=', key).execute()
  const adults = [
    ...adultMarks.map((a) => ({ name: a.name, signed_up: signed.adults.some((n) => sameName(n, a.name)), present: a.present === 1 })),
    ...[...new Set(signed.adults)]
      .filter((n) => !adultMarks.some((a) => sameName(a.name, n)))
      .map((name) => ({ name, signed_up: true, present: false })),
  ].sort(byName)
  const last = [...marks.values(), ...adultMarks].sort((a, b) => b.recorded_at.localeCompare(a.recorded_at))[0]
  return {
    uid: key,
    event_uid: uid,
    date: event.date,
    title: event.title,
    unit: event.unit,
    kind: event.kind ?? null,
    nights: event.nights ?? 0,
    service_hours: event.service_hours ?? 0,
    miles: event.miles ?? 0,
    started: Date.now() >= event.start,
    signup: signed.asked,
    scouts,
    others,
    adults,
    recorded_at: last?.recorded_at ?? null,
    recorded_by: last?.recorded_by ?? null,
  }
}

/** PUT: marks the scouts and adults sent, present or not, once the event has started; the others stay as they are. */
export async function takeAttendance(db: Db, caller: Caller, key: string, body: typeof AttendanceBody.static) {
  const { uid, event } = await eventOf(db, key)
  ledUnitsOf(caller, event)
  if (Date.now() < event.start)
    throw unprocessable(
      `"${event.title}" has not started: attendance can be taken from ${dayWords(event.date)}${event.time ? `, ${clockWords(event.time)}` : ''}`,
      'event_not_started',
    )
  const adults = (body.adults ?? []).map((a) => ({ ...a, name: a.name.trim().replace(/\s+/g, ' ') }))
  if (!body.scouts.length && !adults.length) throw unprocessable('scouts: name at least one scout or adult to mark')
  const twice = body.scouts.find((s, i) => body.scouts.findIndex((o) => o.scout_id === s.scout_id) !== i)
  if (twice) throw unprocessable(`scouts: scout ${twice.scout_id} is sent twice`)
  const twiceAdult = adults.find((a, i) => adults.findIndex((o) => sameName(o.name, a.name)) !== i)
  if (twiceAdult) throw unprocessable(`adults: ${twiceAdult.name} is sent twice`)
  if (adults.some((a) => !a.name)) throw unprocessable('adults: a name must not be empty')

  const { rows, listed } = await listing(db, key, uid, event)
  const known = await scoutQuery(db)
    .where(
      'scouts.id',
      'in',
      body.scouts.map((s) => s.scout_id),
    )
    .execute()
    .then((found) => new Map([...rows, ...found].map((s) => [s.id, s])))
  const marks = body.scouts.map((s) => {
    const scout = known.get(s.scout_id)
    if (!scout) throw unprocessable(`scouts: there is no scout ${s.scout_id}`)
    if (!leadsSlug(caller, scout.unit))
      throw forbidden(`${scoutName(scout)} is in the ${scout.unit}, a unit you do not lead`, 'unit_out_of_scope')
    if (!unitsOf(event.unit).includes(scout.unit) && !listed(scout))
      throw unprocessable(`scouts: ${scoutName(scout)} is in the ${scout.unit}, and "${event.title}" is for the ${event.unit}`)
    return { scout, present: s.present }
  })

  const stored = await db.selectFrom('attendance_adults').select('name').where('event_uid', '=', key).execute()
  const now = nowIso()
  await write(db, async (trx) => {
    for (const { scout, present } of marks) {
      const values = { present: present ? 1 : 0, unit: scout.unit, recorded_at: now, recorded_by: caller.actor }
      await trx
        .insertInto('attendance')
        .values({ event_uid: key, scout_id: scout.id, ...values })
        .onConflict((oc) => oc.columns(['event_uid', 'scout_id']).doUpdateSet(values))
        .execute()
    }
    for (const a of adults) {
      const name = stored.find((s) => sameName(s.name, a.name))?.name ?? a.name
      const values = { present: a.present ? 1 : 0, recorded_at: now, recorded_by: caller.actor }
      await trx
        .insertInto('attendance_adults')
        .values({ event_uid: key, name, ...values })
        .onConflict((oc) => oc.columns(['event_uid', 'name']).doUpdateSet(values))
        .execute()
    }
    const came = [...marks.filter((m) => m.present).map((m) => scoutName(m.scout)), ...adults.filter((a) => a.present).map((a) => a.name)]
    const not = [...marks.filter((m) => !m.present).map((m) => scoutName(m.scout)), ...adults.filter((a) => !a.present).map((a) => a.name)]
    const names = (list: string[]) => (list.length > 6 ? plural(list.length, 'person', 'people') : listWords(list))
    const parts = [came.length && `${names(came)} came`, not.length && `${names(not)} did not`].filter(Boolean)
    await record(trx, caller.actor, 'calendar.attendance', `"${event.title}" on ${event.date}: ${parts.join('; ')}`)
  })
  return attendanceOf(db, caller, key)
}
