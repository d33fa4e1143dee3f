// Forms and lists where families find them (issue 50): GET /api/admin/family/files lists the files of the family's
// units it may open (public, and members-only of its units), each with its event, an event's until a week after it;
// and the public calendar's card of an event links its public files.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServerWithSite, type TestServer } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'
import { addDays, today } from '../dates.ts'

let s: TestServer
let packLeader: { cookie: string }
let troopLeader: { cookie: string }
beforeAll(async () => {
  s = await startServerWithSite()
  packLeader = await s.as(ROLES.packLeader)
  troopLeader = await s.as(ROLES.troopLeader)
})
afterAll(() => s.stop())

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

async function upload(cookie: string, name: string, fields: Record<string, string>) {
  const body = new FormData()
  body.set('file', new File([PDF as Uint8Array<ArrayBuffer>], name))
  for (const [k, v] of Object.entries(fields)) body.set(k, v)
  const res = await s.req('POST', '/api/admin/files', { cookie, body })
  expect(res.status).toBe(201)
  return res.body.id as string
}

async function event(title: string, date: string) {
  const res = await s.req('POST', '/api/admin/calendar', { cookie: packLeader.cookie, json: { title, date, unit: 'pack' } })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

describe('GET /api/admin/family/files', () => {
  it("lists the files of the family's units it may open, with their events; past and deleted events' files drop off", async () => {
    const campout = await event('Fall campout', addDays(today(), 12))
    const longAgo = await event('Spring hike', addDays(today(), -30))
    const gone = await event('Called-off trip', addDays(today(), 20))
    const slip = await upload(packLeader.cookie, 'permission-slip.pdf', { unit: 'pack', visibility: 'public', event_uid: campout })
    const packing = await upload(packLeader.cookie, 'packing-list.pdf', { unit: 'pack', visibility: 'members', event_uid: campout })
    const form = await upload(packLeader.cookie, 'health-form.pdf', { unit: 'both', visibility: 'members' })
    const troopOnly = await upload(troopLeader.cookie, 'troop-roster-form.pdf', { unit: 'troop', visibility: 'members' })
    const old = await upload(packLeader.cookie, 'hike-map.pdf', { unit: 'pack', visibility: 'public', event_uid: longAgo })
    const cancelled = await upload(packLeader.cookie, 'trip-flyer.pdf', { unit: 'pack', visibility: 'public', event_uid: gone })
    expect((await s.req('DELETE', `/api/admin/calendar/${encodeURIComponent(gone)}`, { cookie: packLeader.cookie })).status).toBe(200)

    const pack = await familyAccount(s, { unit: 'pack', email: null, scouts: 1 })
    const res = await s.req('GET', '/api/admin/family/files', { cookie: pack.cookie })
    expect(res.status).toBe(200)
    const byId = new Map((res.body.files as any[]).map((f) => [f.id, f]))
    expect([...byId.keys()].sort()).toEqual([slip, packing, form].sort())
    expect(byId.get(slip).event).toEqual({ uid: campout, title: 'Fall campout', date: addDays(today(), 12) })
    expect(byId.get(packing)).toMatchObject({ visibility: 'members', url: '/files/' + packing + '/packing-list.pdf' })
    expect(byId.get(form).event).toBeNull()
    for (const hidden of [troopOnly, old, cancelled]) expect(byId.has(hidden)).toBe(false)
    // What the list offers, the family can open.
    for (const f of res.body.files) expect((await fetch(s.url + f.url, { headers: { cookie: pack.cookie } })).status).toBe(200)

    // A troop family's account with no membership of its own: only its household's unit counts.
    const troop = await s.as({})
    await addHousehold(s.db, { unit: 'troop', email: null, scouts: 1, accounts: [troop.id] })
    const theirs = await s.req('GET', '/api/admin/family/files', { cookie: troop.cookie })
    expect((theirs.body.files as any[]).map((f) => f.id).sort()).toEqual([form, troopOnly].sort())
    expect((await s.req('GET', '/api/admin/family/files')).status).toBe(401)
  })

  it("links an event's public files on its public calendar card, and not its members-only ones", async () => {
    const uid = await event('Pinewood derby', addDays(today(), 8))
    await upload(packLeader.cookie, 'derby-rules.pdf', { unit: 'pack', visibility: 'public', event_uid: uid })
    await upload(packLeader.cookie, 'derby-helpers.pdf', { unit: 'pack', visibility: 'members', event_uid: uid })
    await s.site!.settled()
    const page = await s.req('GET', '/calendar/')
    expect(page.status).toBe(200)
    const card = page.text.slice(page.text.indexOf(`data-event="${uid}"`))
    expect(card.slice(0, card.indexOf('</li>\n'))).toContain('derby-rules.pdf')
    expect(page.text).not.toContain('derby-helpers.pdf')
  })
})
