// The calendar feeds of the built site: /calendar.ics with every event, /calendar/pack.ics and /calendar/troop.ics with a
// unit's own events and those for both, and the subscribe links (webcal://, Google Calendar, download) on the pages.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import ICAL from 'ical.js'
import { toICalendar } from '../../server/calendar/event.ts'
import { getSetting } from '../../server/settings/registry.ts'
import { addDays, compact, today, upcoming } from '../dates.ts'
import { expectFoldedWithin75Octets, startServerWithSite, type TestServer } from '../helpers.ts'

const BASE = 'http://127.0.0.1:1' // PUBLIC_BASE_URL of the test servers
let s: TestServer
/** The resources of the store's local copy, by uid. */
const resources: Record<string, string> = {}

/** A resource as another calendar app writes it: no X-SITE-UNIT unless `unit` is given. */
const foreign = (uid: string, title: string, date: string, unit?: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Phone//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;VALUE=DATE:${compact(date)}`,
    `SUMMARY:${title}`,
    ...(unit ? [`X-SITE-UNIT:${unit}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n')

beforeAll(async () => {
  s = await startServerWithSite({})
  const timeZone = await getSetting(s.db, 'site.timezone')
  const soon = addDays(today(), 4)
  Object.assign(resources, {
    'a-pack': toICalendar(
      'a-pack',
      { title: 'Pinewood derby', unit: 'pack', date: upcoming(2), time: '10:00', location: 'School gym' },
      timeZone,
    ),
    'b-troop': toICalendar(
      'b-troop',
      { title: 'Winter campout at Lake Ōkāwa, bring warm sleeping bags', unit: 'troop', date: soon, end: addDays(soon, 2) },
      timeZone,
    ),
    'c-both': toICalendar(
      'c-both',
      {
        title: 'Committee meeting',
        unit: 'both',
        date: addDays(today(), 3),
        time: '19:00',
        repeat: 'weekly',
        repeat_until: addDays(today(), 60),
      },
      timeZone,
    ),
    'd-phone': foreign('d-phone', 'Added on a phone', addDays(today(), 5)),
    'e-odd': foreign('e-odd', 'Unit nobody knows', addDays(today(), 6), 'crew'),
  })
  const now = new Date().toISOString()
  for (const [uid, ics] of Object.entries(resources))
    await s.db
      .insertInto('calendar_objects')
      .values({ uid, url: `/site/units/${uid}.ics`, etag: null, ics, synced_at: now })
      .execute()
  const build = await s.site!.build('calendar fixtures')
  if (!build.ok) throw new Error(build.error!)
}, 60_000)
afterAll(() => s.stop())

async function feed(path: string) {
  const res = await fetch(`${s.url}${path}`)
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  const cal = new ICAL.Component(ICAL.parse(text))
  const uids = cal.getAllSubcomponents('vevent').map((v) => String(v.getFirstPropertyValue('uid')))
  return { res, bytes, text, cal, uids }
}

/** The BEGIN:`name` … END:`name` blocks of an iCalendar text, verbatim. */
const blocks = (ics: string, name: string) =>
  [...ics.matchAll(new RegExp(`BEGIN:${name}\\r\\n[\\s\\S]*?END:${name}\\r\\n`, 'g'))].map((m) => m[0])

describe('GET /calendar.ics', () => {
  it('is unchanged: every stored event as written, in uid order, each time zone once before the first event needing it', async () => {
    const { res, text } = await feed('/calendar.ics')
    expect(res.headers.get('content-type')).toContain('text/calendar')
    const name = await getSetting(s.db, 'site.name')
    const zones = new Set<string>()
    let body = ''
    for (const uid of Object.keys(resources).sort()) {
      for (const zone of blocks(resources[uid], 'VTIMEZONE')) {
        const id = /TZID:(.*)\r\n/.exec(zone)![1]
        if (!zones.has(id)) body += zone
        zones.add(id)
      }
      body += blocks(resources[uid], 'VEVENT').join('')
    }
    expect(zones.size).toBe(1) // the repeating event brought its zone
    const head = `BEGIN:VCALENDAR\r\nPRODID:-//Scouting units site//Calendar//EN\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nX-WR-CALNAME:${name}\r\nX-WR-TIMEZONE:America/Chicago\r\n`
    expect(text).toBe(`${head}${body}END:VCALENDAR\r\n`)
  })
})

describe('GET /calendar/pack.ics and /calendar/troop.ics', () => {
  for (const [unit, other, name] of [
    ['pack', 'b-troop', 'Pack'],
    ['troop', 'a-pack', 'Troop'],
  ] as const)
    it(`${unit}: text/calendar with the ${unit}'s events and those for both (unit-less or unknown ones too), not the other unit's`, async () => {
      const { res, bytes, text, cal, uids } = await feed(`/calendar/${unit}.ics`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/calendar')
      expect(res.headers.get('cache-control')).toBe('public, max-age=300')
      expect(cal.getFirstPropertyValue('version')).toBe('2.0')
      expect(cal.getFirstPropertyValue('x-wr-calname')).toBe(`${await getSetting(s.db, 'site.name')} — ${name}`)
      expectFoldedWithin75Octets(bytes)
      const own = unit === 'pack' ? 'a-pack' : 'b-troop'
      // An event without X-SITE-UNIT, or with one the site does not know, is for both units (as on the pages).
      expect(uids.sort()).toEqual([own, 'c-both', 'd-phone', 'e-odd'].sort())
      expect(uids).not.toContain(other)
      const page = (await s.req('GET', `/calendar/${unit}/`)).text
      expect(new Set([...page.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1]))).toEqual(new Set(uids))
      // The events are as the whole feed has them, the recurrence rule and the zone it needs included.
      const whole = (await feed('/calendar.ics')).text
      for (const vevent of blocks(text, 'VEVENT')) expect(whole).toContain(vevent)
      expect(text).toContain('RRULE:FREQ=WEEKLY')
      expect(blocks(text, 'VTIMEZONE')).toHaveLength(1)
      const events = cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
      expect(events.find((e) => e.uid === 'c-both')!.isRecurring()).toBe(true)
    })
})

describe('feed validators', () => {
  for (const path of ['/calendar.ics', '/calendar/troop.ics'])
    it(`${path}: text/calendar in UTF-8 with ETag and Last-Modified; 304 without a body when they still hold`, async () => {
      const res = await fetch(`${s.url}${path}`)
      const body = await res.text()
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
      const etag = res.headers.get('etag')!
      const lastModified = res.headers.get('last-modified')!
      expect(etag).toMatch(/^"[\w-]+"$/)
      expect(new Date(lastModified).toUTCString()).toBe(lastModified)
      const asks: Record<string, string>[] = [
        { 'if-none-match': etag },
        { 'if-none-match': `"other", W/${etag}` },
        { 'if-modified-since': lastModified },
      ]
      for (const headers of asks) {
        const again = await fetch(`${s.url}${path}`, { headers })
        expect(again.status).toBe(304)
        expect(await again.text()).toBe('')
        expect(again.headers.get('etag')).toBe(etag)
        expect(again.headers.get('last-modified')).toBe(lastModified)
      }
      // If-None-Match decides when sent, even beside a matching If-Modified-Since.
      const changed = await fetch(`${s.url}${path}`, { headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified } })
      expect(changed.status).toBe(200)
      expect(await changed.text()).toBe(body)
    })

  it('keeps the validators across a rebuild that does not change the feed', async () => {
    const before = await fetch(`${s.url}/calendar/pack.ics`)
    await new Promise((r) => setTimeout(r, 1100)) // a later build writes files with a later time
    const build = await s.site!.build('same events')
    expect(build.ok).toBe(true)
    const after = await fetch(`${s.url}/calendar/pack.ics`, { headers: { 'if-none-match': before.headers.get('etag')! } })
    expect(after.status).toBe(304)
    expect(after.headers.get('last-modified')).toBe(before.headers.get('last-modified'))
  })
})

describe('subscribe links on the pages', () => {
  const links = (html: string) =>
    [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => ({ href: m[1].replaceAll('&amp;', '&'), text: m[2] }))

  for (const [page, path] of [
    ['/units/pack/', '/calendar/pack.ics'],
    ['/units/troop/', '/calendar/troop.ics'],
    ['/calendar/pack/', '/calendar/pack.ics'],
    ['/calendar/troop/month/', '/calendar/troop.ics'],
    ['/calendar/', '/calendar.ics'],
    ['/calendar/month/', '/calendar.ics'],
  ])
    it(`${page} offers ${path} by webcal://, Google Calendar (cid = the webcal address) and download`, async () => {
      const html = (await s.req('GET', page)).text
      const found = links(html)
      const webcal = `webcal://127.0.0.1:1${path}`
      expect(found).toContainEqual({ href: webcal, text: 'Subscribe' })
      const google = found.find((l) => l.text === 'Add to Google Calendar')!
      const url = new URL(google.href)
      expect(`${url.origin}${url.pathname}`).toBe('https://calendar.google.com/calendar/render')
      expect(url.searchParams.get('cid')).toBe(webcal)
      expect(google.href).toContain(`cid=${encodeURIComponent(webcal)}`)
      expect(found).toContainEqual({ href: path, text: 'Download (.ics)' })
      expect(html).toContain(`${BASE}${path}`) // the address to paste into other apps
    })

  it('lists the month views in the sitemap beside the list pages', async () => {
    const locs = [...(await s.req('GET', '/sitemap.xml')).text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    for (const path of ['/calendar/', '/calendar/month/', '/calendar/pack/month/', '/calendar/troop/month/'])
      expect(locs).toContain(`${BASE}${path}`)
    expect(new Set(locs).size).toBe(locs.length)
    expect(locs.some((l) => l.endsWith('.ics'))).toBe(false)
  })

  it('links each event of the month view to its card in the list view', async () => {
    const month = (await s.req('GET', '/calendar/pack/month/')).text
    const list = (await s.req('GET', '/calendar/pack/')).text
    const targets = [...month.matchAll(/href="\/calendar\/pack\/#([^"]+)"/g)].map((m) => m[1])
    expect(targets.length).toBeGreaterThan(3)
    for (const id of new Set(targets)) expect(list).toContain(`id="${id}"`)
    expect(month).not.toContain('Winter campout') // the troop's
    expect(month).toContain('Pinewood derby')
  })
})
