// Event albums: adding a photo (leaders of the event's units, families signed up for it), tagging scouts, reviewing
// and marking public, a family's takedown (hidden at once, leaders told by mail), deleting, the family page's albums,
// and a scout or household leaving the roster: each route's statuses and who may do what.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { FileStore } from '../../server/files/store.ts'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { carriesMetadata, claimingPixels, heicPhoto, phonePhoto } from '../images.ts'
import { familyAccount } from '../households.ts'
import { ago, attend, pastEvent } from '../attendance.ts'
import { albumEvent, eventPath, photoFamily, readyPhoto, upload } from '../photos.ts'

let s: TestServer
let leader: { cookie: string; email: string }
let troopLeader: { cookie: string; email: string }
let uid: string
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
  troopLeader = await s.as(ROLES.troopLeader)
  uid = await albumEvent(s, leader)
})
afterAll(() => s.stop())

const photoDir = (id: number) => path.join(s.dir, 'files', 'site.db', 'photos', String(id))
const albumOf = (cookie: string, of = uid) => s.req('GET', `${eventPath(of)}/photos`, { cookie })
const fetchAs = (url: string, cookie?: string) => fetch(s.url + url, { headers: cookie ? { cookie } : {} })
const tag = (id: number, scout_ids: number[], cookie = leader.cookie) =>
  s.req('PUT', `/api/admin/photos/${id}/scouts`, { cookie, json: { scout_ids } })
const review = (id: number, json: Record<string, boolean>, cookie = leader.cookie) =>
  s.req('PATCH', `/api/admin/photos/${id}`, { cookie, json })

describe('POST /api/admin/calendar/{uid}/photos', () => {
  it('keeps only upright web sizes without metadata, waiting for review', async () => {
    const res = await upload(s, leader.cookie, uid, await phonePhoto())
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      event_uid: uid,
      width: 1200,
      height: 2000,
      reviewed: false,
      public: false,
      shown_to: 'leaders',
      scouts: [],
    })
    expect(res.body.sizes.map((z: any) => z.url.split('/').pop())).toEqual([
      'w480.webp',
      'w480.jpg',
      'w960.webp',
      'w960.jpg',
      'w1200.webp',
      'w1200.jpg',
    ])
    expect(res.body.url).toBe(`/photos/${res.body.id}/w1200.jpg`)
    for (const size of res.body.sizes) {
      const served = await fetchAs(size.url, leader.cookie)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe(size.type)
      const bytes = new Uint8Array(await served.arrayBuffer())
      expect(await carriesMetadata(bytes)).toBe(false)
      expect((await sharp(bytes).metadata()).width).toBe(size.width)
    }
  })

  it('lets a family with a confirmed yes add one, and refuses families not signed up and other units’ leaders', async () => {
    const coming = await photoFamily(s, 'pack', true, uid)
    expect((await upload(s, coming.cookie, uid)).status).toBe(201)
    const notComing = await photoFamily(s, 'pack', true)
    const refused = await upload(s, notComing.cookie, uid)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('not_on_event')
    expect((await upload(s, troopLeader.cookie, uid)).body.code).toBe('not_on_event')
    const admin = await s.as(ROLES.admin)
    expect((await upload(s, admin.cookie, uid)).status).toBe(201)
  })

  it('takes an iPhone HEIC, kept as clean web sizes; a bomb of a HEIC is 422 image_too_large', async () => {
    const res = await upload(s, leader.cookie, uid, await heicPhoto(), 'IMG_4242.HEIC', 'image/heic')
    expect(res.status).toBe(201)
    expect([res.body.width, res.body.height, res.body.url]).toEqual([640, 480, `/photos/${res.body.id}/w640.jpg`])
    for (const size of res.body.sizes) {
      const served = await fetchAs(size.url, leader.cookie)
      expect(served.status).toBe(200)
      expect(await carriesMetadata(new Uint8Array(await served.arrayBuffer()))).toBe(false)
    }
    const bomb = await upload(s, leader.cookie, uid, claimingPixels(await heicPhoto(), 30_000, 20_000), 'bomb.heic', 'image/heic')
    expect([bomb.status, bomb.body.code]).toEqual([422, 'image_too_large'])
  })

  it('adds the photo once when a lost answer is retried with the same Idempotency-Key, and refuses another photo under it', async () => {
    const event = await albumEvent(s, leader, 'pack', 'Retry hike')
    const key = { 'idempotency-key': `photo-${Date.now()}` }
    const first = await upload(s, leader.cookie, event, undefined, 'photo.jpg', 'image/jpeg', key)
    const again = await upload(s, leader.cookie, event, undefined, 'photo.jpg', 'image/jpeg', key)
    expect([first.status, again.status]).toEqual([201, 201])
    expect(again.body.id).toBe(first.body.id)
    expect((await albumOf(leader.cookie, event)).body.photos).toHaveLength(1)
    // Another photo under the same key is no retry: refused, and the album keeps one photo.
    const other = await upload(s, leader.cookie, event, await phonePhoto(), 'photo.jpg', 'image/jpeg', key)
    expect([other.status, other.body.code]).toEqual([422, 'idempotency_key_reused'])
    expect((await albumOf(leader.cookie, event)).body.photos).toHaveLength(1)
  })

  it('answers 401 without a session, 404 for an unknown event, 415 without a form, 422 for no file or not an image, 413 past files.max_mb', async () => {
    expect((await upload(s, '', uid)).status).toBe(401)
    expect((await upload(s, leader.cookie, 'no-such-event@example')).status).toBe(404)
    const json = await s.req('POST', `${eventPath(uid)}/photos`, { cookie: leader.cookie, json: { file: 'x' } })
    expect(json.status).toBe(415)
    const pdf = await upload(
      s,
      leader.cookie,
      uid,
      new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF'),
      'slip.pdf',
      'application/pdf',
    )
    expect([pdf.status, pdf.body.code]).toEqual([422, 'not_an_image'])
    const text = await upload(s, leader.cookie, uid, new TextEncoder().encode('just words'), 'photo.jpg')
    expect([text.status, text.body.code]).toEqual([422, 'not_an_image'])
    const form = new FormData()
    form.append('caption', 'no file here')
    const none = await fetch(`${s.url}${eventPath(uid)}/photos`, { method: 'POST', body: form, headers: { cookie: leader.cookie } })
    expect([none.status, (await none.json()).code]).toEqual([422, 'required'])
    const big = await upload(s, leader.cookie, uid, new Uint8Array(21 * 1024 * 1024))
    expect([big.status, big.body.code]).toEqual([413, 'file_too_large'])
  })
})

describe('POST /api/admin/calendar/{uid}/photos when space runs out', () => {
  it('answers 507 past files.total_gb, which photos share with files, keeping nothing', async () => {
    const admin = await s.as(ROLES.admin)
    const cap = (value: number) => s.req('PUT', '/api/admin/settings/files.total_gb', { cookie: admin.cookie, json: { value } })
    expect((await cap(1)).status).toBe(200)
    const store = new FileStore(path.join(s.dir, 'files', 'site.db'))
    mkdirSync(store.folder('files', 'filler'), { recursive: true })
    writeFileSync(store.path('files', 'filler', 'original'), '')
    truncateSync(store.path('files', 'filler', 'original'), 1024 ** 3 - 100)
    const before = (await albumOf(leader.cookie)).body.photos.length
    try {
      const full = await upload(s, leader.cookie, uid)
      expect([full.status, full.body.code]).toEqual([507, 'files_full'])
      expect((await albumOf(leader.cookie)).body.photos).toHaveLength(before)
    } finally {
      store.remove('files', 'filler')
      await cap(5)
    }
  })
})

describe('GET /api/admin/calendar/{uid}/photos', () => {
  it('shows leaders every photo with tags and taggable scouts, families the reviewed ones, others none', async () => {
    const event = await albumEvent(s, leader, 'pack', 'Pinewood derby')
    const fam = await photoFamily(s, 'pack', true, event)
    const waiting = await readyPhoto(s, leader, event, [fam.scout])
    const shown = await readyPhoto(s, leader, event, [fam.scout], { reviewed: true })
    const mine = await albumOf(leader.cookie, event)
    expect(mine.status).toBe(200)
    expect(mine.body).toMatchObject({ title: 'Pinewood derby', unit: 'pack', leader: true, can_upload: true })
    expect(mine.body.photos.map((p: any) => p.id)).toEqual([waiting.id, shown.id])
    expect(mine.body.photos[1].scouts).toEqual([{ id: fam.scout, name: 'Sam', photo_consent: true }])
    expect(mine.body.taggable.some((t: any) => t.id === fam.scout)).toBe(true)
    const theirs = await albumOf(fam.cookie, event)
    expect(theirs.body).toMatchObject({ leader: false, can_upload: true })
    expect(theirs.body.photos.map((p: any) => [p.id, p.yours, p.shown_to])).toEqual([[shown.id, true, 'families']])
    expect(theirs.body.photos[0].scouts).toBeUndefined()
    expect(theirs.body.taggable).toBeUndefined()
    const troopFamily = await photoFamily(s, 'troop', true)
    expect((await albumOf(troopFamily.cookie, event)).body).toMatchObject({ photos: [], can_upload: false })
    expect((await albumOf(troopLeader.cookie, event)).body.photos).toEqual([])
    expect((await s.req('GET', `${eventPath(event)}/photos`)).status).toBe(401)
    expect((await albumOf(leader.cookie, 'no-such-event@example')).status).toBe(404)
  })
})

describe('the scouts a leader may tag', () => {
  it('come first when they were on the event (a confirmed yes, or recorded present), then the rest by name', async () => {
    const rename = (id: number, first_name: string) => s.db.updateTable('scouts').set({ first_name }).where('id', '=', id).execute()
    const elsewhere = await photoFamily(s, 'pack', true)
    await rename(elsewhere.scout, 'Abe')
    const party = await albumEvent(s, leader, 'pack', 'Blue and gold')
    const replied = await photoFamily(s, 'pack', true, party)
    await rename(replied.scout, 'Zed')
    const tagsOf = async (event: string) => (await albumOf(leader.cookie, event)).body.taggable.map((t: any) => t.id)
    const partyTags = await tagsOf(party)
    expect(partyTags[0]).toBe(replied.scout)
    expect(partyTags.indexOf(elsewhere.scout)).toBeGreaterThan(0)

    const hike = await pastEvent(s, leader.cookie, { title: 'Leaf hike', date: ago(3), unit: 'pack' })
    const came = await photoFamily(s, 'pack', true)
    await rename(came.scout, 'Yara')
    await attend(s, leader.cookie, hike, [came.scout])
    const hikeTags = await tagsOf(hike)
    expect(hikeTags[0]).toBe(came.scout)
    expect(hikeTags.indexOf(elsewhere.scout)).toBeGreaterThan(0)
    expect(hikeTags.indexOf(replied.scout)).toBeGreaterThan(hikeTags.indexOf(elsewhere.scout)) // Abe before Zed, by name
  })
})

describe('GET /api/admin/photos/{id}', () => {
  it('answers the photo as the album shows it to the caller, 404 to one it does not show it to', async () => {
    const fam = await photoFamily(s, 'pack', true, uid)
    const photo = await readyPhoto(s, leader, uid, [fam.scout])
    const get = (cookie?: string) => s.req('GET', `/api/admin/photos/${photo.id}`, { cookie })
    expect((await get(leader.cookie)).body).toMatchObject({ id: photo.id, shown_to: 'leaders', scouts: [{ id: fam.scout }] })
    expect((await get(fam.cookie)).status).toBe(404)
    await review(photo.id, { reviewed: true })
    const seen = await get(fam.cookie)
    expect(seen.body).toMatchObject({ id: photo.id, shown_to: 'families', yours: true })
    expect(seen.body.scouts).toBeUndefined()
    expect((await get(troopLeader.cookie)).status).toBe(404)
    expect((await get()).status).toBe(401)
    expect((await s.req('GET', '/api/admin/photos/999999', { cookie: leader.cookie })).status).toBe(404)
  })
})

describe('PUT /api/admin/photos/{id}/scouts', () => {
  it('tags scouts, and a change asks for a new review', async () => {
    const fam = await photoFamily(s, 'pack', true)
    const other = await photoFamily(s, 'pack', true)
    const photo = await readyPhoto(s, leader, uid, [fam.scout], { public: true })
    const again = await tag(photo.id, [fam.scout])
    expect(again.body).toMatchObject({ reviewed: true, public: true })
    const changed = await tag(photo.id, [fam.scout, other.scout])
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ reviewed: false, public: false, shown_to: 'leaders' })
    expect(changed.body.scouts.map((t: any) => t.id)).toEqual([fam.scout, other.scout].sort((a, b) => a - b))
    expect((await s.lastLog('photos.tag')).summary).toBe(`Photo #${photo.id}: 2 scouts tagged; it waits for a new review`)
  })

  it('answers 422 for an unknown scout, 403 to another unit’s leader and to families, 404 for an unknown photo', async () => {
    const photo = await readyPhoto(s, leader, uid, [])
    const unknown = await tag(photo.id, [999999])
    expect([unknown.status, unknown.body.code]).toEqual([422, 'unknown_scout'])
    const other = await tag(photo.id, [], troopLeader.cookie)
    expect([other.status, other.body.code]).toEqual([403, 'unit_out_of_scope'])
    const fam = await photoFamily(s, 'pack', true, uid)
    expect((await tag(photo.id, [fam.scout], fam.cookie)).status).toBe(403)
    expect((await tag(999999, [])).status).toBe(404)
  })
})

describe('PATCH /api/admin/photos/{id}', () => {
  it('reviews, marks public (which reviews), and takes both back', async () => {
    const fam = await photoFamily(s, 'pack', true)
    const photo = await readyPhoto(s, leader, uid, [fam.scout])
    expect((await review(photo.id, { reviewed: true })).body).toMatchObject({ reviewed: true, public: false, shown_to: 'families' })
    expect((await review(photo.id, { public: true })).body).toMatchObject({ reviewed: true, public: true, shown_to: 'everyone' })
    expect((await review(photo.id, { reviewed: false })).body).toMatchObject({ reviewed: false, public: false, shown_to: 'leaders' })
    expect((await s.lastLog('photos.review')).summary).toBe(`Photo #${photo.id}: not reviewed, shown to leaders`)
  })

  it('refuses public while a tagged scout lacks consent (422), a taken-down photo (409), other units (403), unknown (404)', async () => {
    const no = await photoFamily(s, 'pack', false)
    const photo = await readyPhoto(s, leader, uid, [no.scout])
    const pub = await review(photo.id, { public: true })
    expect([pub.status, pub.body.code]).toEqual([422, 'scout_without_consent'])
    const reviewed = await review(photo.id, { reviewed: true })
    expect(reviewed.body).toMatchObject({ reviewed: true, shown_to: 'leaders' })
    expect((await review(photo.id, { reviewed: true }, troopLeader.cookie)).status).toBe(403)
    expect((await review(999999, { reviewed: true })).status).toBe(404)
    const yes = await photoFamily(s, 'pack', true)
    const down = await readyPhoto(s, leader, uid, [yes.scout], { reviewed: true })
    expect((await s.req('POST', `/api/admin/photos/${down.id}/takedown`, { cookie: yes.cookie, json: {} })).status).toBe(200)
    const refused = await review(down.id, { reviewed: true })
    expect([refused.status, refused.body.code]).toEqual([409, 'taken_down'])
  })
})

describe('POST /api/admin/photos/{id}/takedown', () => {
  it('hides the photo at once and tells the event’s leaders by mail without the photo; asking again changes nothing', async () => {
    const fam = await photoFamily(s, 'pack', true, uid)
    const watcher = await photoFamily(s, 'pack', true)
    const photo = await readyPhoto(s, leader, uid, [fam.scout], { public: true })
    expect((await fetchAs(photo.sizes[0].url)).status).toBe(200)
    expect((await albumOf(watcher.cookie)).body.photos.some((p: any) => p.id === photo.id)).toBe(true)
    const before = (await s.db.selectFrom('mail_outbox').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0
    const res = await s.req('POST', `/api/admin/photos/${photo.id}/takedown`, {
      cookie: fam.cookie,
      json: { note: 'Please, not this one' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: photo.id, taken_down: true })
    for (const size of photo.sizes) {
      expect((await fetchAs(size.url)).status).toBe(404)
      expect((await fetchAs(size.url, watcher.cookie)).status).toBe(404)
      expect((await fetchAs(size.url, fam.cookie)).status).toBe(404)
      expect((await fetchAs(size.url, leader.cookie)).status).toBe(200)
    }
    expect((await albumOf(watcher.cookie)).body.photos.some((p: any) => p.id === photo.id)).toBe(false)
    expect((await albumOf(leader.cookie)).body.photos.find((p: any) => p.id === photo.id)).toMatchObject({
      taken_down: true,
      shown_to: 'leaders',
    })
    const mails = await s.db.selectFrom('mail_outbox').selectAll().where('id', '>', before).execute()
    expect(mails.map((m) => [m.kind, m.to_address])).toEqual([['photo_takedown', leader.email]])
    expect(mails[0].text_body).toContain('Please, not this one')
    expect(mails[0].text_body).toContain(`/admin/calendar/photos/?uid=${encodeURIComponent(uid)}`)
    expect(mails[0].text_body + mails[0].html_body).not.toContain('/photos/' + photo.id)
    const again = await s.req('POST', `/api/admin/photos/${photo.id}/takedown`, { cookie: fam.cookie })
    expect(again.status).toBe(200)
    expect(await s.db.selectFrom('mail_outbox').select('id').where('id', '>', before).execute()).toHaveLength(1)
  })

  it('answers 403 to a family that sees it but has no scout in it, 404 to one that cannot see it, 401 anonymous', async () => {
    const tagged = await photoFamily(s, 'pack', true)
    const photo = await readyPhoto(s, leader, uid, [tagged.scout], { reviewed: true })
    const packFamily = await photoFamily(s, 'pack', true)
    const seen = await s.req('POST', `/api/admin/photos/${photo.id}/takedown`, { cookie: packFamily.cookie })
    expect([seen.status, seen.body.code]).toEqual([403, 'not_your_scout'])
    const troopFamily = await photoFamily(s, 'troop', true)
    expect((await s.req('POST', `/api/admin/photos/${photo.id}/takedown`, { cookie: troopFamily.cookie })).status).toBe(404)
    expect((await s.req('POST', `/api/admin/photos/999999/takedown`, { cookie: packFamily.cookie })).status).toBe(404)
    expect((await s.req('POST', `/api/admin/photos/${photo.id}/takedown`)).status).toBe(401)
  })
})

describe('DELETE /api/admin/photos/{id}', () => {
  it('deletes the photo and its web sizes for leaders of the event’s units only', async () => {
    const photo = await readyPhoto(s, leader, uid, [], { public: true })
    expect(existsSync(photoDir(photo.id))).toBe(true)
    expect((await s.req('DELETE', `/api/admin/photos/${photo.id}`, { cookie: troopLeader.cookie })).status).toBe(403)
    const fam = await photoFamily(s, 'pack', true, uid)
    expect((await s.req('DELETE', `/api/admin/photos/${photo.id}`, { cookie: fam.cookie })).status).toBe(403)
    const res = await s.req('DELETE', `/api/admin/photos/${photo.id}`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(photo.id)
    expect(existsSync(photoDir(photo.id))).toBe(false)
    expect((await fetchAs(photo.sizes[0].url)).status).toBe(404)
    expect((await s.req('DELETE', `/api/admin/photos/${photo.id}`, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.lastLog('photos.delete')).summary).toContain(`Photo #${photo.id} deleted from the album of "Fall campout"`)
  })
})

describe('GET /api/admin/family/photos', () => {
  it('lists the albums of the family’s units with the photos they may see, newest event first', async () => {
    const event = await albumEvent(s, leader, 'both', 'Spring picnic')
    const fam = await photoFamily(s, 'troop', true)
    const photo = await readyPhoto(s, leader, event, [fam.scout], { reviewed: true })
    await readyPhoto(s, leader, event, [])
    const res = await s.req('GET', '/api/admin/family/photos', { cookie: fam.cookie })
    expect(res.status).toBe(200)
    const picnic = res.body.albums.find((a: any) => a.uid === event)
    expect(picnic).toMatchObject({ title: 'Spring picnic', unit: 'both', leader: false, can_upload: false })
    expect(picnic.photos.map((p: any) => [p.id, p.yours])).toEqual([[photo.id, true]])
    const stranger = await s.as(ROLES.member)
    expect((await s.req('GET', '/api/admin/family/photos', { cookie: stranger.cookie })).body).toEqual({ albums: [] })
    expect((await s.req('GET', '/api/admin/family/photos')).status).toBe(401)
  })
})

describe('albums a family may start', () => {
  const albumsOf = async (cookie: string) => (await s.req('GET', '/api/admin/family/photos', { cookie })).body.albums as any[]
  const moveTo = async (event: string, title: string, date: string) =>
    expect((await s.req('PUT', eventPath(event), { cookie: leader.cookie, json: { title, date, unit: 'pack', rsvp: true } })).status).toBe(
      200,
    )

  it('lists the recent events a household was on with no photo yet, can_upload; its first photo then goes up', async () => {
    // Attendance is the way in for an event nobody replied to: the campout three days ago, the scout ticked present.
    const campout = await pastEvent(s, leader.cookie, { title: 'Lake campout', date: ago(3), unit: 'pack' })
    const came = await photoFamily(s, 'pack', true)
    const stayedHome = await photoFamily(s, 'pack', true)
    await attend(s, leader.cookie, campout, [came.scout, { scout_id: stayedHome.scout, present: false }])
    expect(await albumsOf(came.cookie)).toContainEqual(
      expect.objectContaining({ uid: campout, title: 'Lake campout', date: ago(3), can_upload: true, leader: false, photos: [] }),
    )
    expect((await albumsOf(stayedHome.cookie)).map((a) => a.uid)).not.toContain(campout)
    expect((await upload(s, stayedHome.cookie, campout)).body.code).toBe('not_on_event')
    const added = await upload(s, came.cookie, campout)
    expect([added.status, added.body.shown_to]).toEqual([201, 'leaders'])
    // Its photo waits for review, so the album is still one to add to, with nothing in it for the family yet.
    expect((await albumsOf(came.cookie)).find((a) => a.uid === campout)).toMatchObject({ can_upload: true, photos: [] })
    expect((await albumOf(leader.cookie, campout)).body.photos.map((p: any) => p.id)).toEqual([added.body.id])
  })

  it('counts a confirmed yes too; leaves out events still to come and those past 30 days', async () => {
    const hike = await albumEvent(s, leader, 'pack', 'Creek hike')
    const soon = await albumEvent(s, leader, 'pack', 'Pinewood derby')
    const fam = await photoFamily(s, 'pack', true, hike)
    const reply = await s.req('PUT', `${eventPath(soon)}/rsvps`, { cookie: fam.cookie, json: { answer: 'yes', adults: 1, scouts: 1 } })
    expect(reply.status).toBe(200)
    const ours = async () => (await albumsOf(fam.cookie)).filter((a) => a.uid === hike || a.uid === soon).map((a) => [a.uid, a.can_upload])
    expect(await ours()).toEqual([])
    await moveTo(hike, 'Creek hike', ago(1))
    expect(await ours()).toEqual([[hike, true]])
    // 32 days before today in UTC is past the window in the site's time zone too, whichever side of midnight it is.
    await moveTo(hike, 'Creek hike', ago(32))
    expect(await ours()).toEqual([])
    // Past 30 days it is off the page, but the family may still add a photo through the API.
    expect((await upload(s, fam.cookie, hike)).status).toBe(201)
  })
})

describe('a scout or household leaving the roster', () => {
  it('hides every photo tagged with them from families until a leader untags and reviews it again', async () => {
    const viewer = await photoFamily(s, 'pack', true)
    const leaving = await photoFamily(s, 'pack', true)
    const photo = await readyPhoto(s, leader, uid, [leaving.scout], { reviewed: true })
    const sees = async () => (await fetchAs(photo.sizes[0].url, viewer.cookie)).status
    expect(await sees()).toBe(200)
    const off = await s.req('PATCH', `/api/admin/roster/households/${leaving.household}`, {
      cookie: leader.cookie,
      json: { active: false },
    })
    expect(off.status).toBe(200)
    expect(await sees()).toBe(404)
    expect((await albumOf(leader.cookie)).body.photos.find((p: any) => p.id === photo.id).scouts).toEqual([
      { id: leaving.scout, name: 'Sam', photo_consent: false },
    ])

    // No route deletes a scout today; one gone from the table by any way leaves a tag that counts as no consent.
    const gone = await familyAccount(s, { unit: 'pack', email: null, scouts: 1 })
    await s.db.updateTable('scouts').set({ photo_consent: 1 }).where('id', '=', gone.scouts[0]).execute()
    const second = await readyPhoto(s, leader, uid, [gone.scouts[0]], { reviewed: true })
    expect((await fetchAs(second.sizes[0].url, viewer.cookie)).status).toBe(200)
    await s.db.deleteFrom('scouts').where('id', '=', gone.scouts[0]).execute()
    expect((await fetchAs(second.sizes[0].url, viewer.cookie)).status).toBe(404)
    const lost = (await albumOf(leader.cookie)).body.photos.find((p: any) => p.id === second.id)
    expect(lost.scouts).toEqual([{ id: gone.scouts[0], name: 'A scout no longer on the roster', photo_consent: false }])
    expect((await tag(second.id, [])).body).toMatchObject({ reviewed: false, shown_to: 'leaders' })
    expect((await fetchAs(second.sizes[0].url, viewer.cookie)).status).toBe(404)
    expect((await review(second.id, { reviewed: true })).body.shown_to).toBe('families')
    expect((await fetchAs(second.sizes[0].url, viewer.cookie)).status).toBe(200)
  })
})
