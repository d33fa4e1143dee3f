// Uploaded files (issue 50, items 1–2): who may upload, list and delete; the type read from the bytes (a renamed file,
// SVG and HTML refused); the size and total caps; serving with type, nosniff, attachment and ETag; members-only files
// answering 404 to everyone but their unit's people; and every served image without metadata.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import sharp from 'sharp'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { addDays, today } from '../dates.ts'
import { carriesMetadata, claimingPixels, hasGps, heicPhoto, phonePhoto } from '../images.ts'
import { albumEvent, readyPhoto } from '../photos.ts'

let s: TestServer
let roles: Awaited<ReturnType<TestServer['asEveryRole']>>
beforeAll(async () => {
  s = await startServer()
  roles = await s.asEveryRole()
})
afterAll(() => s.stop())

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

/** A multipart upload of `bytes` named `name`, with the form's other fields. */
function form(bytes: Uint8Array, name: string, fields: Record<string, string> = { unit: 'pack', visibility: 'public' }) {
  const body = new FormData()
  body.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  for (const [k, v] of Object.entries(fields)) body.set(k, v)
  return body
}

const upload = (bytes: Uint8Array, name: string, fields?: Record<string, string>, cookie = roles.packLeader.cookie) =>
  s.req('POST', '/api/admin/files', { cookie, body: form(bytes, name, fields) })

const setSetting = (key: string, value: unknown) =>
  s.req('PUT', `/api/admin/settings/${key}`, { cookie: roles.owner.cookie, json: { value } })

describe('POST /api/admin/files', () => {
  it('answers 201 with the file, logs it, asks for a rebuild, and serves it as a download', async () => {
    const rebuilds = s.rebuilds.count
    const res = await upload(PDF, 'Permission slip (fall).pdf')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Permission-slip-fall.pdf',
      mime: 'application/pdf',
      bytes: PDF.byteLength,
      unit: 'pack',
      event_uid: null,
      visibility: 'public',
      url: `/files/${res.body.id}/Permission-slip-fall.pdf`,
      sizes: [],
      created_by: roles.packLeader.email,
    })
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(s.rebuilds.count).toBe(rebuilds + 1)
    expect((await s.lastLog('files.upload')).summary).toBe('Permission-slip-fall.pdf (public, pack)')
    const served = await fetch(s.url + res.body.url)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF)
    expect(served.headers.get('content-type')).toBe('application/pdf')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-disposition')).toStartWith('attachment; filename="Permission-slip-fall.pdf"')
    expect(served.headers.get('cache-control')).toBe('public, max-age=3600')
    const etag = served.headers.get('etag')!
    expect((await fetch(s.url + res.body.url, { headers: { 'if-none-match': etag } })).status).toBe(304)
  })

  it('reads the type from the content: a PDF named .jpg is a PDF, a text file named .pdf is text', async () => {
    const pdf = await upload(PDF, 'photo.jpg')
    expect(pdf.body).toMatchObject({ mime: 'application/pdf', name: 'photo.pdf' })
    const text = await upload(new TextEncoder().encode('Packing list\n- sleeping bag\n- flashlight\n'), 'list.pdf')
    expect(text.body).toMatchObject({ mime: 'text/plain', name: 'list.txt' })
    const served = await fetch(s.url + text.body.url)
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  it('answers 415 for SVG and HTML however named, for an unknown binary, and for a body that is not a form upload', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'
    for (const [text, name] of [
      [svg, 'logo.png'],
      [`<?xml version="1.0"?>${svg}`, 'logo.svg'],
      ['<!DOCTYPE html><html><script>alert(1)</script></html>', 'notes.txt'],
      ['<html><body>hi</body></html>', 'page.pdf'],
    ]) {
      const res = await upload(new TextEncoder().encode(text), name)
      expectDetail(res, 415)
      expect(res.body.code).toBe('markup_refused')
    }
    const elf = await upload(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]), 'form.pdf')
    expect([elf.status, elf.body.code]).toEqual([415, 'type_refused'])
    const json = await s.req('POST', '/api/admin/files', { cookie: roles.packLeader.cookie, json: { file: 'x' } })
    expect([json.status, json.body.code]).toEqual([415, 'multipart_required'])
    expect(await s.db.selectFrom('files').select('id').where('name', 'like', 'logo%').execute()).toEqual([])
  })

  it('answers 422 without a file, for an empty file, a bad unit or visibility, or an image that cannot be read', async () => {
    const none = new FormData()
    none.set('unit', 'pack')
    none.set('visibility', 'public')
    expectDetail(await s.req('POST', '/api/admin/files', { cookie: roles.packLeader.cookie, body: none }), 422)
    expectDetail(await upload(new Uint8Array(), 'empty.pdf'), 422)
    expectDetail(await upload(PDF, 'a.pdf', { unit: 'crew', visibility: 'public' }), 422)
    expectDetail(await upload(PDF, 'a.pdf', { unit: 'pack', visibility: 'secret' }), 422)
    expectDetail(await upload(PDF, 'a.pdf', { unit: 'pack' }), 422)
    const jpeg = await phonePhoto()
    const cut = await upload(jpeg.subarray(0, 400), 'cut.jpg')
    expect([cut.status, cut.body.code]).toEqual([422, 'image_unreadable'])
  })

  it('answers 401, 403 per role and unit, and 201 for the unit’s leader, an admin and the break-glass token', async () => {
    expect((await s.req('POST', '/api/admin/files', { body: form(PDF, 'a.pdf') })).status).toBe(401)
    expect((await upload(PDF, 'a.pdf', undefined, roles.member.cookie)).status).toBe(403)
    const other = await upload(PDF, 'a.pdf', undefined, roles.troopLeader.cookie)
    expect([other.status, other.body.code]).toEqual([403, 'unit_out_of_scope'])
    expect((await upload(PDF, 'a.pdf', { unit: 'troop', visibility: 'members' }, roles.troopLeader.cookie)).status).toBe(201)
    expect((await upload(PDF, 'a.pdf', { unit: 'both', visibility: 'public' }, roles.admin.cookie)).status).toBe(201)
    expect((await s.req('POST', '/api/admin/files', { token: ADMIN_TOKEN, body: form(PDF, 'a.pdf') })).status).toBe(201)
  })

  it('answers 413 past files.max_mb and 507 past files.total_gb, in plain words, keeping nothing', async () => {
    const before = (
      await s.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
    expect((await setSetting('files.max_mb', 1)).status).toBe(200)
    const big = new Uint8Array(1024 * 1024 + 10).fill(0x41)
    big.set(new TextEncoder().encode('%PDF-1.4\n'))
    const tooBig = await upload(big, 'big.pdf')
    expect([tooBig.status, tooBig.body.code]).toEqual([413, 'file_too_large'])
    expect(tooBig.body.detail).toContain('larger than 1 MB')
    // Well past the limit: refused by its Content-Length before the body is read, in the same words.
    const huge = await upload(new Uint8Array(3 * 1024 * 1024).fill(0x41), 'huge.txt')
    expect([huge.status, huge.body.code]).toEqual([413, 'file_too_large'])
    expect((await setSetting('files.max_mb', null)).status).toBe(200)
    expect((await setSetting('files.total_gb', 1)).status).toBe(200)
    // The disk holds a file taking nearly all of the 1 GB: a sparse blob under the files folder, as a past upload left it.
    const { FileStore } = await import('../../server/files/store.ts')
    const store = new FileStore(`${s.dir}/files/site.db`)
    const { truncateSync, mkdirSync, writeFileSync } = await import('node:fs')
    mkdirSync(store.folder('files', 'filler'), { recursive: true })
    writeFileSync(store.path('files', 'filler', 'original'), '')
    truncateSync(store.path('files', 'filler', 'original'), 1024 ** 3 - 100)
    const full = await upload(PDF, 'one-more.pdf')
    expect([full.status, full.body.code]).toEqual([507, 'files_full'])
    expect(full.body.detail).toContain('1 GB')
    store.remove('files', 'filler')
    expect((await setSetting('files.total_gb', null)).status).toBe(200)
    const after = (
      await s.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
    expect(after).toBe(before)
    expect((await upload(PDF, 'fits.pdf')).status).toBe(201)
  })
})

describe('images', () => {
  it('keeps no metadata in any size served, turns the photo upright, and never upscales', async () => {
    const res = await upload(await phonePhoto(), 'IMG_0001.HEIC.jpg')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ mime: 'image/jpeg', name: 'IMG_0001.HEIC.jpg', width: 1200, height: 2000 })
    expect(res.body.sizes.map((z: { width: number; mime: string }) => `${z.width} ${z.mime}`)).toEqual([
      '480 image/webp',
      '480 image/jpeg',
      '960 image/webp',
      '960 image/jpeg',
      '1200 image/webp',
      '1200 image/jpeg',
    ])
    for (const url of [res.body.url, ...res.body.sizes.map((z: { url: string }) => z.url)]) {
      const served = await fetch(s.url + url)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-disposition')).toStartWith('inline')
      const bytes = new Uint8Array(await served.arrayBuffer())
      expect(await carriesMetadata(bytes)).toBe(false)
      const meta = await sharp(bytes).metadata()
      expect(meta.height! > meta.width!).toBe(true)
    }
    const small = await upload(
      await sharp({ create: { width: 200, height: 100, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
      'tiny.png',
    )
    expect(small.body.sizes.map((z: { width: number }) => z.width)).toEqual([200, 200])
    expect(small.body.mime).toBe('image/jpeg')
  })
})

describe('HEIC, as an iPhone sends it', () => {
  it('is decoded and kept as clean web sizes: JPEG and WebP, no GPS or camera, the colours of the photo', async () => {
    const heic = await heicPhoto()
    expect(hasGps((await sharp(heic).metadata()).exif!)).toBe(true)
    const res = await upload(heic, 'IMG_4242.HEIC')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ mime: 'image/jpeg', name: 'IMG_4242.jpg', width: 640, height: 480 })
    expect(res.body.sizes.map((z: { name: string; width: number; mime: string }) => `${z.width} ${z.mime}`)).toEqual([
      '480 image/webp',
      '480 image/jpeg',
      '640 image/webp',
      '640 image/jpeg',
    ])
    for (const url of [res.body.url, ...res.body.sizes.map((z: { url: string }) => z.url)]) {
      const served = new Uint8Array(await (await fetch(s.url + url)).arrayBuffer())
      expect(await carriesMetadata(served)).toBe(false)
      // The ramp survives: dark red-green at the top left, full red at the top right, blue 128 throughout.
      const { data, info } = await sharp(served).raw().toBuffer({ resolveWithObject: true })
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)]
      const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]) < 24)
      expect(near(at(2, 2), [0, 0, 128]), `${url} ${at(2, 2)}`).toBe(true)
      expect(near(at(info.width - 3, 2), [255, 0, 128]), `${url} ${at(info.width - 3, 2)}`).toBe(true)
    }
  })

  it('answers 422 image_too_large, before decoding, for a HEIC or JPEG claiming more than 100 million pixels; a cut HEIC 422', async () => {
    const heic = await upload(claimingPixels(await heicPhoto(), 20_000, 20_000), 'bomb.heic')
    expectDetail(heic, 422)
    expect([heic.body.code, heic.body.detail]).toEqual(['image_too_large', expect.stringContaining('100 million pixels')])
    const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#abc' } })
      .jpeg()
      .toBuffer()
    const jpeg = await upload(claimingPixels(small, 12_000, 12_000), 'bomb.jpg')
    expect([jpeg.status, jpeg.body.code]).toEqual([422, 'image_too_large'])
    // A HEIC cut off part way is unreadable, in words, never a server error.
    const cut = await upload((await heicPhoto()).subarray(0, 1500), 'cut.heic')
    expect([cut.status, cut.body.code]).toEqual([422, 'image_unreadable'])
  })
})

describe('GET /files/:id/:name (members-only)', () => {
  let packFile: { url: string; sizes: { url: string }[] }
  beforeAll(async () => {
    const png = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#123' } })
      .png()
      .toBuffer()
    packFile = (await upload(png, 'den-photo.png', { unit: 'pack', visibility: 'members' })).body
  })

  it('opens for the unit’s members, its leaders, admins, owners and a family with a scout in it; 404 for everyone else', async () => {
    const family = await s.as({})
    await addHousehold(s.db, { unit: 'pack', email: null, accounts: [family.id] })
    const troopFamily = await s.as({})
    await addHousehold(s.db, { unit: 'troop', email: null, accounts: [troopFamily.id] })
    const troopMember = await s.as({ units: [{ slug: 'troop', role: 'member' }] })
    const expected: [string, string | undefined, number][] = [
      ['anonymous', undefined, 404],
      ['pack member', roles.member.cookie, 200],
      ['pack leader', roles.packLeader.cookie, 200],
      ['troop leader', roles.troopLeader.cookie, 404],
      ['troop member', troopMember.cookie, 404],
      ['admin', roles.admin.cookie, 200],
      ['owner', roles.owner.cookie, 200],
      ['pack family', family.cookie, 200],
      ['troop family', troopFamily.cookie, 404],
    ]
    for (const url of [packFile.url, packFile.sizes[0].url]) {
      const got = []
      for (const [who, cookie] of expected) got.push([who, cookie, (await s.req('GET', url, { cookie })).status])
      expect(got).toEqual(expected)
    }
    const members = await s.req('GET', packFile.url, { cookie: roles.member.cookie })
    expect(members.headers.get('cache-control')).toBe('private, no-cache')
  })

  it('answers the same 404 for an unknown id, a wrong name or size, and a members-only file', async () => {
    const id = packFile.url.split('/')[2]
    const answers = await Promise.all(
      ['/files/AAAAAAAAAAAAAAAAAAAAAA/x.pdf', `/files/${id}/other.png`, `/files/${id}/sizes/w9999.webp`, packFile.url].map((u) =>
        s.req('GET', u),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404])
    expect(new Set(answers.map((a) => a.text)).size).toBe(1)
  })
})

/** A troop event made through the calendar API; answers its uid. */
async function troopEvent(title: string) {
  const res = await s.req('POST', '/api/admin/calendar', {
    cookie: roles.troopLeader.cookie,
    json: { title, date: addDays(today(), 14), unit: 'troop' },
  })
  expect(res.status).toBe(201)
  return res.body.uid as string
}

describe('event_uid on an upload', () => {
  it('answers 422 for an event_uid naming no event (none, or deleted), keeping nothing; 201 for a live event', async () => {
    const count = async () =>
      (
        await s.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
    const before = await count()
    const fields = (event_uid: string) => ({ unit: 'troop', visibility: 'public', event_uid })
    const unknown = await upload(PDF, 'slip.pdf', fields('no-such-event@example.org'), roles.troopLeader.cookie)
    expectDetail(unknown, 422)
    expect(unknown.body.detail).toBe('event_uid: no event no-such-event@example.org')
    expect(unknown.body.errors).toEqual([{ field: 'event_uid', code: 'invalid', detail: unknown.body.detail }])
    const gone = await troopEvent('Called-off hike')
    expect((await s.req('DELETE', `/api/admin/calendar/${encodeURIComponent(gone)}`, { cookie: roles.troopLeader.cookie })).status).toBe(
      200,
    )
    expect((await upload(PDF, 'slip.pdf', fields(gone), roles.troopLeader.cookie)).status).toBe(422)
    expect(await count()).toBe(before)
    const live = await troopEvent('Summer camp')
    const ok = await upload(PDF, 'slip.pdf', fields(live), roles.troopLeader.cookie)
    expect([ok.status, ok.body.event_uid]).toEqual([201, live])
  })
})

describe('Idempotency-Key on an upload', () => {
  const fileCount = async () =>
    (
      await s.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
  const keyed = (key: string, bytes: Uint8Array, name: string) =>
    s.req('POST', '/api/admin/files', { cookie: roles.packLeader.cookie, headers: { 'idempotency-key': key }, body: form(bytes, name) })
  const text = (words: string) => new TextEncoder().encode(words)

  it('answers a retry of the same file with the first answer, keeping one file', async () => {
    const before = await fileCount()
    const first = await keyed('upload-retry-1', text('Packing list\n- tent\n'), 'list.txt')
    expect(first.status).toBe(201)
    const again = await keyed('upload-retry-1', text('Packing list\n- tent\n'), 'list.txt')
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([201, first.text, 'true'])
    expect(await fileCount()).toBe(before + 1)
  })

  it('refuses another file under the same key: 422 idempotency_key_reused, nothing stored', async () => {
    expect((await keyed('upload-retry-2', text('Packing list\n- tent\n'), 'list.txt')).status).toBe(201)
    const before = await fileCount()
    // Same name, same fields, other bytes: only the file's content tells them apart.
    const other = await keyed('upload-retry-2', text('Packing list\n- stove\n'), 'list.txt')
    expectDetail(other, 422)
    expect(other.body.code).toBe('idempotency_key_reused')
    const photo = await keyed('upload-retry-2', await phonePhoto(), 'list.txt')
    expect([photo.status, photo.body.code]).toEqual([422, 'idempotency_key_reused'])
    expect(await fileCount()).toBe(before)
  })
})

describe('a session whose second factor is overdue', () => {
  it('opens no members-only file or family photo (404, as for an unknown id) until the factor is added; public ones still', async () => {
    const leader = await s.as({ ...ROLES.packLeader, email: 'overdue.leader@example.org' })
    // A leader who is also a parent of the pack: a family's way in must close too.
    await addHousehold(s.db, { unit: 'pack', email: null, accounts: [leader.id] })
    const members = (await upload(PDF, 'den-roster.pdf', { unit: 'pack', visibility: 'members' }, leader.cookie)).body
    const open = (await upload(PDF, 'flyer.pdf', { unit: 'pack', visibility: 'public' }, leader.cookie)).body
    const uid = await albumEvent(s, leader, 'pack', 'Den hike')
    const photo = await readyPhoto(s, leader, uid, [], { reviewed: true })
    const urls = [members.url, photo.sizes[0].url]
    const statuses = async () =>
      Promise.all([...urls, open.url].map(async (u) => (await s.req('GET', u, { cookie: leader.cookie })).status))
    expect(await statuses()).toEqual([200, 200, 200])
    const policy = (value: string) =>
      s.req('PUT', '/api/admin/settings/security.second_factor', { cookie: roles.owner.cookie, json: { value } })
    expect((await policy('leaders')).status).toBe(200)
    const due = (await s.req('GET', '/api/admin/whoami', { cookie: leader.cookie })).body.second_factor.due_at
    try {
      expect(await statuses()).toEqual([200, 200, 200])
      setSystemTime(new Date(Date.parse(due) + 1000))
      expect((await s.req('GET', '/api/admin/family', { cookie: leader.cookie })).body.code).toBe('second_factor_required')
      expect(await statuses()).toEqual([404, 404, 200])
      const unknown = await s.req('GET', '/files/AAAAAAAAAAAAAAAAAAAAAA/x.pdf')
      expect((await s.req('GET', members.url, { cookie: leader.cookie })).text).toBe(unknown.text)
      // The family of the pack is not asked for a factor: it still opens both.
      const family = await s.as({})
      await addHousehold(s.db, { unit: 'pack', email: null, accounts: [family.id] })
      for (const u of urls) expect((await s.req('GET', u, { cookie: family.cookie })).status).toBe(200)
    } finally {
      setSystemTime()
      expect((await policy('optional')).status).toBe(200)
    }
    expect(await statuses()).toEqual([200, 200, 200])
  })
})

describe('GET /api/admin/files and DELETE /api/admin/files/:id', () => {
  it('lists newest first, by unit and event, paged', async () => {
    const campout = await troopEvent('Campout')
    const a = await upload(PDF, 'slip.pdf', { unit: 'troop', visibility: 'public', event_uid: campout }, roles.troopLeader.cookie)
    const b = await upload(PDF, 'list.pdf', { unit: 'troop', visibility: 'members', event_uid: campout }, roles.troopLeader.cookie)
    const byEvent = await s.req('GET', `/api/admin/files?event_uid=${encodeURIComponent(campout)}`, { cookie: roles.packLeader.cookie })
    expect(byEvent.status).toBe(200)
    expect(byEvent.body.files.map((f: { id: string }) => f.id)).toEqual([b.body.id, a.body.id])
    const first = await s.req('GET', '/api/admin/files?unit=troop&limit=1', { cookie: roles.troopLeader.cookie })
    expect(first.body.files).toHaveLength(1)
    const next = await s.req('GET', `/api/admin/files?unit=troop&limit=1&cursor=${first.body.next_cursor}`, {
      cookie: roles.troopLeader.cookie,
    })
    expect(next.body.files[0].id).not.toBe(first.body.files[0].id)
    expect(
      (await s.req('GET', `/api/admin/files?unit=pack&cursor=${first.body.next_cursor}`, { cookie: roles.troopLeader.cookie })).status,
    ).toBe(422)
    expect((await s.req('GET', '/api/admin/files')).status).toBe(401)
    expect((await s.req('GET', '/api/admin/files', { cookie: roles.member.cookie })).status).toBe(403)
  })

  it('deletes: 200, logged, the address 404 from then on; 403 for another unit’s leader; 404 for an unknown id', async () => {
    const file = (await upload(await phonePhoto(), 'gone.jpg')).body
    expect((await s.req('DELETE', `/api/admin/files/${file.id}`, { cookie: roles.troopLeader.cookie })).status).toBe(403)
    expect((await s.req('DELETE', `/api/admin/files/${file.id}`, { cookie: roles.member.cookie })).status).toBe(403)
    expect((await s.req('DELETE', `/api/admin/files/${file.id}`)).status).toBe(401)
    const one = await s.req('GET', `/api/admin/files/${file.id}`, { cookie: roles.troopLeader.cookie })
    expect([one.status, one.body.url]).toEqual([200, file.url])
    expect((await s.req('GET', `/api/admin/files/${file.id}`, { cookie: roles.member.cookie })).status).toBe(403)
    const res = await s.req('DELETE', `/api/admin/files/${file.id}`, { cookie: roles.packLeader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(file.id)
    expect((await s.lastLog('files.delete')).summary).toBe('gone.jpg')
    expect((await s.req('GET', file.url)).status).toBe(404)
    expect((await s.req('GET', file.sizes[0].url)).status).toBe(404)
    const { existsSync } = await import('node:fs')
    expect(existsSync(`${s.dir}/files/site.db/files/${file.id}`)).toBe(false)
    expect((await s.req('DELETE', `/api/admin/files/${file.id}`, { cookie: roles.packLeader.cookie })).status).toBe(404)
    expect((await s.req('GET', `/api/admin/files/${file.id}`, { cookie: roles.packLeader.cookie })).status).toBe(404)
  })
})

describe('paths under /files/ and /photos/', () => {
  it('answer the API’s 404, not the site’s "being built" page, when no file or photo is there (this server has no build)', async () => {
    for (const p of ['/files/', '/files/%20/', '/files/x/', '/photos/', '/photos/1/'])
      for (const method of ['GET', 'HEAD']) expect((await fetch(s.url + p, { method })).status, `${method} ${p}`).toBe(404)
  })
})
