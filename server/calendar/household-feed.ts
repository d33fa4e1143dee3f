// Members-only events for families: the upcoming events of a household's units that the public site leaves out, and a
// private iCalendar feed per household (/calendar/household/{token}.ics) with all its units' events, public and
// members-only. The token is kept only as its SHA-256, one per household: making a new one stops the old link. The
// feed holds the events only, never anything about the household or others.
import ICAL from './ical.ts'
import type { Caller } from '../auth/credential.ts'
import { randomToken, sha256 } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { notFound } from '../errors.ts'
import { ownHouseholdIds } from '../roster/own-households.ts'
import { Instant, Nullable, nowIso, OneOf, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { occurrencesIn, titleAndUnitOf } from './event.ts'
import { shownWindow } from './service.ts'

export const FamilyCalendar = t.Object(
  {
    households: t.Array(
      t.Object(
        {
          household_id: t.Integer(),
          parent_name: t.String(),
          feed_made_at: Nullable({ ...Instant, description: 'When its private feed link was made; null when it has none' }),
        },
        { additionalProperties: false },
      ),
    ),
    members_events: t.Array(
      t.Object(
        {
          uid: t.String(),
          title: t.String(),
          date: t.String({ format: 'date' }),
          end: t.Optional(t.String({ format: 'date' })),
          time: t.Optional(t.String()),
          end_time: t.Optional(t.String()),
          location: t.Optional(t.String()),
          unit: OneOf(['pack', 'troop', 'both'] as const),
        },
        { additionalProperties: false },
      ),
      { description: "Upcoming members-only events of your households' units (the public calendar leaves them out)" },
    ),
  },
  { additionalProperties: false },
)

export const NewFeed = t.Object(
  {
    household_id: t.Integer(),
    url: t.String({ description: 'The private feed to subscribe to; shown only now. A new one stops this one' }),
    webcal: t.String({ description: 'The same address for phones to subscribe to' }),
    made_at: Instant,
  },
  { additionalProperties: false },
)

/** The unit slugs a household's scouts are in. */
async function unitsOf(db: Executor, householdIds: number[]) {
  if (!householdIds.length) return new Set<string>()
  const rows = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select('units.slug')
    .distinct()
    .where('scouts.household_id', 'in', householdIds)
    .execute()
  return new Set<string>(rows.map((r) => r.slug))
}

const forUnits = (units: Set<string>, unit: string) => unit === 'both' || units.has(unit)

/** GET /api/admin/family/calendar: your households with whether each has a feed, and the members-only events ahead. */
export async function familyCalendar(db: Executor, caller: Caller) {
  const ids = await ownHouseholdIds(db, caller)
  const households = ids.length
    ? await db
        .selectFrom('households')
        .leftJoin('household_feeds', 'household_feeds.household_id', 'households.id')
        .select(['households.id as household_id', 'households.parent_name', 'household_feeds.created_at as feed_made_at'])
        .where('households.id', 'in', ids)
        .orderBy('households.parent_name')
        .execute()
    : []
  const units = await unitsOf(db, ids)
  const { timeZone, from, to } = await shownWindow(db)
  const objects = await db.selectFrom('calendar_objects').select('ics').execute()
  const members_events = occurrencesIn(objects, from, to, timeZone)
    .filter((e) => e.visibility === 'members' && forUnits(units, e.unit))
    .map(({ uid, title, date, end, time, end_time, location, unit }) => ({
      uid,
      title,
      date,
      unit,
      ...(end ? { end } : {}),
      ...(time ? { time } : {}),
      ...(end_time ? { end_time } : {}),
      ...(location ? { location } : {}),
    }))
  return { households, members_events }
}

/** POST …/households/{id}/feed: a new private feed link for one of your households; the old link stops. */
export async function newFeed(db: Db, caller: Caller, householdId: number, baseUrl: string) {
  if (!(await ownHouseholdIds(db, caller)).includes(householdId)) throw notFound('Not a household your account is linked to')
  const token = randomToken()
  const made = { token_hash: sha256(token), created_at: nowIso(), created_by: caller.actor }
  await write(db, async (trx) => {
    const had = await trx.selectFrom('household_feeds').select('household_id').where('household_id', '=', householdId).executeTakeFirst()
    await trx
      .insertInto('household_feeds')
      .values({ household_id: householdId, ...made })
      .onConflict((oc) => oc.column('household_id').doUpdateSet(made))
      .execute()
    const name = (await trx.selectFrom('households').select('parent_name').where('id', '=', householdId).executeTakeFirstOrThrow())
      .parent_name
    await record(
      trx,
      caller.actor,
      'calendar.household_feed',
      `New private calendar link for ${name}'s household${had ? ' (the old link stopped)' : ''}`,
    )
  })
  const url = `${baseUrl}/calendar/household/${token}.ics`
  return { household_id: householdId, url, webcal: url.replace(/^https?:/, 'webcal:'), made_at: made.created_at }
}

/** GET /calendar/household/{token}.ics: every event of the household's units, members-only ones too; 404 otherwise. */
export async function householdFeed(db: Executor, file: string): Promise<string> {
  const token = file.endsWith('.ics') ? file.slice(0, -4) : ''
  const feed = token
    ? await db
        .selectFrom('household_feeds')
        .innerJoin('households', 'households.id', 'household_feeds.household_id')
        .select('households.id')
        .where('household_feeds.token_hash', '=', sha256(token))
        .where('households.active', '=', 1)
        .executeTakeFirst()
    : undefined
  if (!feed) throw notFound('No such calendar feed (the link may have been replaced by a newer one)')
  const units = await unitsOf(db, [feed.id])
  const cal = new ICAL.Component(['vcalendar', [], []])
  cal.addPropertyWithValue('prodid', '-//Scouting units site//Calendar//EN')
  cal.addPropertyWithValue('version', '2.0')
  cal.addPropertyWithValue('calscale', 'GREGORIAN')
  cal.addPropertyWithValue('x-wr-calname', `${await getSetting(db, 'site.name')} — your family`)
  const zones = new Set<string>()
  for (const { ics } of await db.selectFrom('calendar_objects').select('ics').orderBy('uid').execute()) {
    if (!forUnits(units, titleAndUnitOf(ics)?.unit ?? '')) continue
    let source: ICAL.Component
    try {
      source = new ICAL.Component(ICAL.parse(ics))
    } catch {
      continue
    }
    for (const tz of source.getAllSubcomponents('vtimezone')) {
      const id = String(tz.getFirstPropertyValue('tzid'))
      if (!zones.has(id)) cal.addSubcomponent(tz) && zones.add(id)
    }
    for (const ev of source.getAllSubcomponents('vevent')) cal.addSubcomponent(ev)
  }
  return cal.toString() + '\r\n'
}
