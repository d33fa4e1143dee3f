// Social posts: ingest (with images), list, image, cancel and reschedule against a publisher stand-in on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'

// The publisher we do not own: signs per-post links with a secret the site never sees, and can be told to refuse.
const SECRET = 'publisher-only-secret'
const sign = (id: string) => new Bun.CryptoHasher('sha256', SECRET).update(id).digest('hex')
const publisher = { refuse: false, down: false, cancelled: [] as string[], rescheduled: [] as any[], requests: 0 }
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    publisher.requests++
    const url = new URL(req.url)
    if (publisher.refuse) return new Response('signature rejected <script>alert(1)</script> internal=db01.publisher.lan', { status: 403 })
    if (url.pathname.startsWith('/cancel/')) {
      const id = decodeURIComponent(url.pathname.slice('/cancel/'.length))
      if (url.searchParams.get('sig') !== sign(id)) return new Response('bad signature', { status: 401 })
      publisher.cancelled.push(id)
      return Response.json({ ok: true })
    }
    if (url.pathname === '/control/reschedule') {
      const body = await req.json()
      if (req.headers.get('x-post-signature') !== sign(body.id)) return new Response('bad signature', { status: 401 })
      publisher.rescheduled.push(body)
      return Response.json({ ok: true })
    }
    return new Response('not found', { status: 404 })
  },
})
const PUB = `http://127.0.0.1:${server.port}`

let s: TestServer
let ingestKey: string
let leader: { cookie: string; email: string }
beforeAll(async () => {
  s = await startServer({ OUTBOUND_ALLOW: '127.0.0.1/32' }) // the publisher stand-in is on loopback
  const admin = await s.as(ROLES.admin)
  ingestKey = (await s.mintKey(admin.cookie, ['socialposts:ingest'])).key
  await s.req('PUT', '/api/admin/settings/socialposts.control_url', { cookie: admin.cookie, json: { value: `${PUB}/control` } })
  leader = await s.as(ROLES.packLeader)
})
afterAll(async () => {
  await s.stop()
  server.stop(true)
})

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString()
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
const image = (bytes = PNG, mime = 'image/png') => ({
  b64: bytes.toString('base64'),
  mime,
  sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'),
})
const report = (id: string, extra: Record<string, unknown> = {}) =>
  s.req('POST', '/api/admin/socialposts/ingest', {
    key: ingestKey,
    json: {
      id,
      unit: id.split('/')[0],
      status: 'scheduled',
      message: `Post ${id}`,
      scheduled_for: inMinutes(24 * 60),
      cancel_url: `${PUB}/cancel/${encodeURIComponent(id)}?sig=${sign(id)}`,
      queue_file: `${id}.json`,
      ...extra,
    },
  })
const enc = (id: string) => id.split('/').map(encodeURIComponent).join('/')

describe('POST /api/admin/socialposts/ingest', () => {
  it('stores a post with and without an image (200), idempotent by id, logged as socialposts.ingest', async () => {
    const res = await report('pack/2026-11-30-popcorn', { image: image(), page_id: 'page-1', link: 'https://example.org/popcorn' })
    expect(res.status).toBe(200)
    expect(res.body.post).toMatchObject({ id: 'pack/2026-11-30-popcorn', status: 'scheduled', page_id: 'page-1' })
    expect(res.body.post.image.mime).toBe('image/png')
    const again = await report('pack/2026-11-30-popcorn', { message: 'Popcorn orders close Friday!' })
    expect(again.status).toBe(200)
    expect(again.body.post.message).toBe('Popcorn orders close Friday!')
    expect(again.body.post.image).not.toBeNull()
    expect((await s.db.selectFrom('social_posts').select('id').where('id', '=', 'pack/2026-11-30-popcorn').execute()).length).toBe(1)
    expect((await report('troop/2026-12-05-campout')).status).toBe(200)
    const log = await s.lastLog('socialposts.ingest')
    expect(log.actor).toContain('key:')
  })

  it('answers 422 for a sha256 mismatch, a non-image MIME type, bad base64 or an unknown field; 413 above the size limit', async () => {
    expect((await report('pack/bad-sha', { image: { ...image(), sha256: 'a'.repeat(64) } })).status).toBe(422)
    expect((await report('pack/not-image', { image: image(Buffer.from('hello'), 'text/html') })).status).toBe(422)
    expect((await report('pack/bad-b64', { image: { b64: '!!!', mime: 'image/png', sha256: 'a'.repeat(64) } })).status).toBe(422)
    expect((await report('pack/extra', { colour: 'red' })).status).toBe(422)
    expect((await report('pack/huge', { image: image(Buffer.alloc(6 * 1024 * 1024, 1)) })).status).toBe(413)
    expect((await s.db.selectFrom('social_posts').select('id').where('id', 'like', 'pack/%').execute()).map((r) => r.id)).toEqual([
      'pack/2026-11-30-popcorn',
    ])
  })

  it('answers 403 to a leader and to a key without the scope, 401 anonymous', async () => {
    expect((await s.req('POST', '/api/admin/socialposts/ingest', { cookie: leader.cookie, json: {} })).status).toBe(403)
    const readKey = (await s.mintKey(leader.cookie, ['socialposts:read'])).key
    expect((await s.req('POST', '/api/admin/socialposts/ingest', { key: readKey, json: {} })).status).toBe(403)
    expect((await s.req('POST', '/api/admin/socialposts/ingest', { json: {} })).status).toBe(401)
  })
})

describe('GET /api/admin/socialposts and the image', () => {
  it('lists open posts newest scheduled first; a passed post reads as published and drops out unless all=true', async () => {
    await report('pack/past-post', { scheduled_for: inMinutes(-5) })
    await report('troop/later', { scheduled_for: inMinutes(48 * 60) })
    const open = await s.req('GET', '/api/admin/socialposts', { cookie: leader.cookie })
    expect(open.status).toBe(200)
    const ids = open.body.posts.map((p: any) => p.id)
    expect(ids[0]).toBe('troop/later')
    expect(ids).not.toContain('pack/past-post')
    const all = await s.req('GET', '/api/admin/socialposts?all=true', { cookie: leader.cookie })
    expect(all.body.posts.find((p: any) => p.id === 'pack/past-post').status).toBe('published')
    expect((await s.req('GET', '/api/admin/socialposts', { cookie: (await s.as(ROLES.member)).cookie })).status).toBe(403)
    expect((await s.req('GET', '/api/admin/socialposts', { token: ADMIN_TOKEN })).status).toBe(200)
  })

  it('serves the stored bytes with their type and Cache-Control at a path with a slash; 401 anonymous, 404 none', async () => {
    const res = await fetch(`${s.url}/api/admin/socialposts/${enc('pack/2026-11-30-popcorn')}/image`, {
      headers: { cookie: leader.cookie },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('cache-control')).toContain('max-age')
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true)
    expect((await s.req('GET', `/api/admin/socialposts/${enc('pack/2026-11-30-popcorn')}/image`)).status).toBe(401)
    expect((await s.req('GET', `/api/admin/socialposts/${enc('troop/later')}/image`, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('GET', '/api/admin/socialposts/pack/none/image', { cookie: leader.cookie })).status).toBe(404)
  })
})

describe('POST /api/admin/socialposts/:post_id/cancel', () => {
  it('sends the signed link as reported; 2xx records the post cancelled and logs it', async () => {
    await report('pack/cancel-me')
    const res = await s.req('POST', `/api/admin/socialposts/${enc('pack/cancel-me')}/cancel`, { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.post.status).toBe('cancelled')
    expect(publisher.cancelled).toContain('pack/cancel-me')
    expect((await s.lastLog('socialposts.cancel')).actor).toBe(leader.email)
  })

  it('keeps cancelled and failed posts in the open list with their status; only published ones drop out', async () => {
    await report('pack/cancelled-stays')
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/cancelled-stays')}/cancel`, { cookie: leader.cookie })).status).toBe(
      200,
    )
    await report('troop/failed-stays', { status: 'failed' })
    await report('troop/failed-long-ago', { status: 'failed', scheduled_for: inMinutes(-60) })
    await report('pack/published-goes', { status: 'published', scheduled_for: inMinutes(-60) })
    const open = (await s.req('GET', '/api/admin/socialposts', { cookie: leader.cookie })).body.posts
    const status = (id: string) => open.find((p: any) => p.id === id)?.status
    expect(status('pack/cancelled-stays')).toBe('cancelled')
    expect(status('troop/failed-stays')).toBe('failed')
    expect(status('troop/failed-long-ago')).toBe('failed')
    expect(status('pack/published-goes')).toBeUndefined()
  })

  it('answers 502 and records nothing when the publisher refuses or cannot be reached', async () => {
    await report('pack/refused')
    publisher.refuse = true
    const res = await s.req('POST', `/api/admin/socialposts/${enc('pack/refused')}/cancel`, { cookie: leader.cookie })
    publisher.refuse = false
    expect(res.status).toBe(502)
    expect(res.body.detail).toContain('refused')
    // What the publisher answered is its own text: the site says what failed and never echoes it.
    expect(res.text).not.toContain('signature rejected')
    expect(res.text).not.toContain('db01')
    expect((await s.db.selectFrom('social_posts').select('status').where('id', '=', 'pack/refused').executeTakeFirstOrThrow()).status).toBe(
      'scheduled',
    )
    await report('pack/unreachable', { cancel_url: 'http://127.0.0.1:1/cancel?sig=x' })
    const unreachable = await s.req('POST', `/api/admin/socialposts/${enc('pack/unreachable')}/cancel`, { cookie: leader.cookie })
    expect(unreachable.status).toBe(502)
    // Refused and unreachable read the same, so the answer cannot map what listens where.
    expect(unreachable.body.detail).toBe(res.body.detail)
    expect(res.text).not.toMatch(/HTTP|40\d|ECONN|127\.0\.0\.1/)
  })

  it('answers 409 without sending anything when the time has passed (the break-glass token too); 404 unknown', async () => {
    await report('pack/too-late', { scheduled_for: inMinutes(-1) })
    const before = publisher.requests
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/too-late')}/cancel`, { cookie: leader.cookie })).status).toBe(409)
    expect(publisher.requests).toBe(before)
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/nothing')}/cancel`, { cookie: leader.cookie })).status).toBe(404)
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/too-late')}/cancel`, { token: ADMIN_TOKEN })).status).toBe(409)
  })

  it('lets the break-glass token cancel and reschedule (every capability but the listed ones), logged as break_glass', async () => {
    await report('pack/by-token')
    const cancel = await s.req('POST', `/api/admin/socialposts/${enc('pack/by-token')}/cancel`, { token: ADMIN_TOKEN })
    expect(cancel.status).toBe(200)
    expect(cancel.body.post.status).toBe('cancelled')
    expect((await s.lastLog('socialposts.cancel')).actor).toBe('break_glass')
    await report('pack/moved-by-token')
    const moved = await s.req('POST', `/api/admin/socialposts/${enc('pack/moved-by-token')}/reschedule`, {
      token: ADMIN_TOKEN,
      json: { message: 'Moved by the committee', scheduled_for: inMinutes(120) },
    })
    expect(moved.status).toBe(200)
    expect((await s.lastLog('socialposts.reschedule')).actor).toBe('break_glass')
  })
})

describe('POST /api/admin/socialposts/:post_id/reschedule', () => {
  it('asks the control server with the post signature; 2xx makes it drafted with no cancel link; a re-report with a new id replaces it', async () => {
    await report('pack/move-me')
    const when = inMinutes(120)
    const res = await s.req('POST', `/api/admin/socialposts/${enc('pack/move-me')}/reschedule`, {
      cookie: leader.cookie,
      json: { message: 'Moved to Sunday', scheduled_for: when },
    })
    expect(res.status).toBe(200)
    expect(res.body.post).toMatchObject({ status: 'drafted', cancel_url: null, message: 'Moved to Sunday' })
    expect(publisher.rescheduled.at(-1)).toEqual({
      id: 'pack/move-me',
      message: 'Moved to Sunday',
      scheduled_for: new Date(when).toISOString(),
    })
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/move-me')}/cancel`, { cookie: leader.cookie })).status).toBe(409)
    const again = await report('pack/move-me-2', { queue_file: 'pack/move-me.json', message: 'Moved to Sunday', scheduled_for: when })
    expect(again.status).toBe(200)
    const ids = (await s.req('GET', '/api/admin/socialposts', { cookie: leader.cookie })).body.posts.map((p: any) => p.id)
    expect(ids).toContain('pack/move-me-2')
    expect(ids).not.toContain('pack/move-me')
    const logged = await s.db
      .selectFrom('action_log')
      .select('kind')
      .where('kind', '=', 'socialposts.reschedule')
      .where('actor', '=', leader.email)
      .execute()
    expect(logged.length).toBe(1)
  })

  it('answers 422 when the new time is sooner than the minimum lead time, before anything is sent', async () => {
    await report('pack/too-soon')
    const before = publisher.requests
    const res = await s.req('POST', `/api/admin/socialposts/${enc('pack/too-soon')}/reschedule`, {
      cookie: leader.cookie,
      json: { message: 'x', scheduled_for: inMinutes(10) },
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toContain('30 minutes')
    expect(publisher.requests).toBe(before)
  })

  it('answers 502 and changes nothing when the control server refuses', async () => {
    await report('pack/no-move')
    publisher.refuse = true
    const res = await s.req('POST', `/api/admin/socialposts/${enc('pack/no-move')}/reschedule`, {
      cookie: leader.cookie,
      json: { message: 'x', scheduled_for: inMinutes(90) },
    })
    publisher.refuse = false
    expect(res.status).toBe(502)
    const row = await s.db.selectFrom('social_posts').selectAll().where('id', '=', 'pack/no-move').executeTakeFirstOrThrow()
    expect(row.status).toBe('scheduled')
    expect(row.cancel_url).not.toBeNull()
  })

  it('answers 422 without a body and 404 for an unknown action', async () => {
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/no-move')}/reschedule`, { cookie: leader.cookie })).status).toBe(422)
    expect((await s.req('POST', `/api/admin/socialposts/${enc('pack/no-move')}/publish`, { cookie: leader.cookie })).status).toBe(404)
  })
})

describe("a unit's posts", () => {
  it('a leader cancels and reschedules only the posts of units they lead (the id says whose): 403 unit_out_of_scope, nothing sent', async () => {
    await report('troop/not-the-packs')
    const before = publisher.requests
    const cancel = await s.req('POST', `/api/admin/socialposts/${enc('troop/not-the-packs')}/cancel`, { cookie: leader.cookie })
    expect(cancel.status).toBe(403)
    expect(cancel.body.code).toBe('unit_out_of_scope')
    const moved = await s.req('POST', `/api/admin/socialposts/${enc('troop/not-the-packs')}/reschedule`, {
      cookie: leader.cookie,
      json: { message: 'Moved by the wrong leader', scheduled_for: inMinutes(120) },
    })
    expect(moved.status).toBe(403)
    expect(moved.body.code).toBe('unit_out_of_scope')
    expect(publisher.requests).toBe(before)
    const troopLeader = await s.as(ROLES.troopLeader)
    const own = await s.req('POST', `/api/admin/socialposts/${enc('troop/not-the-packs')}/cancel`, { cookie: troopLeader.cookie })
    expect(own.status).toBe(200)
    await report('troop/for-the-owner')
    const owner = await s.as(ROLES.owner)
    expect((await s.req('POST', `/api/admin/socialposts/${enc('troop/for-the-owner')}/cancel`, { cookie: owner.cookie })).status).toBe(200)
  })
})
