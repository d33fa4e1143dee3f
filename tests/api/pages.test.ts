// Content pages: who may write them, slugs (422, 409, renaming), partial changes, deleting, the preview, the action
// log and the rebuild each write asks for.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { unitLeaders } from '../../server/pages/unit-leaders.ts'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let leader: { cookie: string; email: string }
let family: { cookie: string }
beforeAll(async () => {
  s = await startServer()
  leader = await s.as(ROLES.packLeader)
  family = await s.as(ROLES.member)
})
afterAll(() => s.stop())

const PAGE = { slug: 'what-it-costs', title: 'What it costs', body: '## Dues\n\n- $60 a year', unit: 'pack' }
const add = (json: Record<string, unknown>, cookie = leader.cookie) => s.req('POST', '/api/admin/pages', { cookie, json })
const patch = (slug: string, json: Record<string, unknown>) => s.req('PATCH', `/api/admin/pages/${slug}`, { cookie: leader.cookie, json })

describe('POST /api/admin/pages', () => {
  it('answers 201 with a draft, logs it and asks for a rebuild', async () => {
    const rebuilds = s.rebuilds.count
    const res = await add(PAGE)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ ...PAGE, published: false, updated_by: leader.email })
    expect(s.rebuilds.count).toBe(rebuilds + 1)
    expect((await s.lastLog('pages.create')).summary).toBe('“What it costs” at /pages/what-it-costs/, for pack, a draft')
  })

  it('answers 409 when the slug is taken', async () => {
    expectDetail(await add({ ...PAGE, title: 'Another' }), 409)
  })

  it('answers 422 for a bad slug, an empty title, an unknown unit or field', async () => {
    for (const slug of ['About-Us', 'about us', 'about_us', '-about', 'about--us', 'über', '', 'a'.repeat(61)])
      expectDetail(await add({ ...PAGE, slug }), 422)
    expectDetail(await add({ ...PAGE, slug: 'x1', title: '   ' }), 422)
    expectDetail(await add({ ...PAGE, slug: 'x2', unit: 'crew' }), 422)
    expectDetail(await add({ ...PAGE, slug: 'x3', published: 'yes' }), 422)
    expectDetail(await add({ ...PAGE, slug: 'x4', colour: 'red' }), 422)
    expectDetail(await add({ slug: 'x5', title: 'No body' }), 422)
  })

  it('answers 401 without a credential and 403 for a family', async () => {
    expectDetail(await s.req('POST', '/api/admin/pages', { json: { ...PAGE, slug: 'anon' } }), 401)
    expectDetail(await add({ ...PAGE, slug: 'family' }, family.cookie), 403)
    expectDetail(await s.req('GET', '/api/admin/pages', { cookie: family.cookie }), 403)
  })

  it('takes a key with pages:write and the break-glass token; refuses a key without it', async () => {
    const withIt = await s.mintKey(leader.cookie, ['pages:write'])
    const without = await s.mintKey(leader.cookie, ['announcements:write'])
    expect((await s.req('POST', '/api/admin/pages', { key: withIt.key, json: { ...PAGE, slug: 'by-key' } })).status).toBe(201)
    expectDetail(await s.req('POST', '/api/admin/pages', { key: without.key, json: { ...PAGE, slug: 'no-key' } }), 403)
    expectDetail(await s.req('GET', '/api/admin/pages/by-key', { key: without.key }), 403)
    const res = await s.req('POST', '/api/admin/pages', { token: ADMIN_TOKEN, json: { ...PAGE, slug: 'by-token', unit: 'both' } })
    expect(res.status).toBe(201)
    expect((await s.req('GET', '/api/admin/pages', { token: ADMIN_TOKEN })).status).toBe(200)
  })
})

describe('GET /api/admin/pages', () => {
  it('lists every page by title, drafts too', async () => {
    const res = await s.req('GET', '/api/admin/pages', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    const titles = res.body.pages.map((p: { title: string }) => p.title)
    expect(titles).toEqual([...titles].sort())
    expect(res.body.pages.map((p: { slug: string }) => p.slug)).toContain('what-it-costs')
  })
  it('pages by title with limit and cursor when asked (same titles by age), and answers whole without them', async () => {
    for (const [slug, title] of [
      ['same-a', 'Zz same'],
      ['same-b', 'Zz same'],
      ['same-c', 'Zz same'],
      ['zz-last', 'Zzz last'],
    ])
      expect((await add({ slug, title, body: 'x' })).status).toBe(201)
    const whole = await s.req('GET', '/api/admin/pages', { cookie: leader.cookie })
    expect(whole.body).not.toHaveProperty('next_cursor')
    expect(whole.headers.get('link')).toBeNull()
    const slugs: string[] = []
    let cursor: string | null = null
    do {
      const res: Awaited<ReturnType<typeof s.req>> = await s.req(
        'GET',
        `/api/admin/pages?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { cookie: leader.cookie },
      )
      expect(res.status).toBe(200)
      expect(res.body.pages.length).toBeLessThanOrEqual(2)
      slugs.push(...res.body.pages.map((p: { slug: string }) => p.slug))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(slugs).toEqual(whole.body.pages.map((p: { slug: string }) => p.slug))
    expect(slugs.slice(-4)).toEqual(['same-a', 'same-b', 'same-c', 'zz-last'])
  })

  it('answers 401 without a credential', async () => {
    expectDetail(await s.req('GET', '/api/admin/pages'), 401)
  })
})

describe('GET/PATCH/DELETE /api/admin/pages/{slug}', () => {
  it('answers 200 with one page and 404 for an unknown slug', async () => {
    const res = await s.req('GET', '/api/admin/pages/what-it-costs', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body.title).toBe('What it costs')
    expect(res.body).toEqual(
      (await s.req('GET', '/api/admin/pages', { cookie: leader.cookie })).body.pages.find((p: any) => p.slug === 'what-it-costs'),
    )
    expectDetail(await s.req('GET', '/api/admin/pages/nothing-here', { cookie: leader.cookie }), 404)
    expectDetail(await s.req('GET', '/api/admin/pages/what-it-costs', { cookie: family.cookie }), 403)
    expectDetail(await s.req('GET', '/api/admin/pages/what-it-costs'), 401)
  })

  it('publishes, renames the slug and logs each change; nothing different logs nothing', async () => {
    const rebuilds = s.rebuilds.count
    const published = await patch('what-it-costs', { published: true })
    expect(published.status).toBe(200)
    expect(published.body.published).toBe(true)
    expect((await s.lastLog('pages.update')).summary).toBe('“What it costs” (/pages/what-it-costs/): published')
    const renamed = await patch('what-it-costs', { slug: 'costs', title: 'Costs' })
    expect(renamed.body).toMatchObject({ slug: 'costs', title: 'Costs', published: true, body: PAGE.body })
    expect((await s.req('GET', '/api/admin/pages/costs', { cookie: leader.cookie })).body).toEqual(renamed.body)
    const listed = (await s.req('GET', '/api/admin/pages', { cookie: leader.cookie })).body.pages
    expect(listed.find((p: any) => p.slug === 'costs')).toEqual(renamed.body)
    expect((await s.lastLog('pages.update')).summary).toBe('“Costs” (/pages/costs/): changed slug and title')
    expect(s.rebuilds.count).toBe(rebuilds + 2)
    expectDetail(await s.req('GET', '/api/admin/pages/what-it-costs', { cookie: leader.cookie }), 404)
    const log = (await s.lastLog('pages.update')).id
    expect((await patch('costs', { title: 'Costs', unit: 'pack' })).status).toBe(200)
    expect((await s.lastLog('pages.update')).id).toBe(log)
  })

  it('answers 409 for a slug another page has, 422 for bad input, 404 for an unknown slug', async () => {
    expectDetail(await patch('costs', { slug: 'by-key' }), 409)
    expectDetail(await patch('costs', { slug: 'Bad Slug' }), 422)
    expectDetail(await patch('costs', { title: '' }), 422)
    expectDetail(await patch('costs', { unit: 'crew' }), 422)
    expectDetail(await patch('nothing-here', { title: 'x' }), 404)
    expectDetail(await s.req('PATCH', '/api/admin/pages/costs', { cookie: family.cookie, json: { title: 'x' } }), 403)
  })

  it('deletes with 200 and the deleted page, like every other DELETE, logs it; again 404', async () => {
    const before = (await s.req('GET', '/api/admin/pages/costs', { cookie: leader.cookie })).body
    const res = await s.req('DELETE', '/api/admin/pages/costs', { cookie: leader.cookie })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(before)
    expect((await s.lastLog('pages.delete')).summary).toBe('Deleted “Costs” (/pages/costs/)')
    expectDetail(await s.req('DELETE', '/api/admin/pages/costs', { cookie: leader.cookie }), 404)
    expectDetail(await s.req('DELETE', '/api/admin/pages/by-key', { cookie: family.cookie }), 403)
    expectDetail(await s.req('DELETE', '/api/admin/pages/by-key'), 401)
  })
})

describe('POST /api/admin/pages/preview', () => {
  it('answers the sanitised HTML and the description, saving nothing', async () => {
    const res = await s.req('POST', '/api/admin/pages/preview', {
      cookie: leader.cookie,
      json: { body: '# Bring\n\n- a water bottle\n\n<script>alert(1)</script> [x](javascript:alert(1))' },
    })
    expect(res.status).toBe(200)
    expect(res.body.html).toContain('<h2>Bring</h2>')
    expect(res.body.html).not.toContain('<script')
    expect(res.body.html).not.toContain('href="javascript')
    expect(res.body.description).toStartWith('a water bottle.')
  })
  it('answers 401, 403 for a family, 422 without a body', async () => {
    expectDetail(await s.req('POST', '/api/admin/pages/preview', { json: { body: 'x' } }), 401)
    expectDetail(await s.req('POST', '/api/admin/pages/preview', { cookie: family.cookie, json: { body: 'x' } }), 403)
    expectDetail(await s.req('POST', '/api/admin/pages/preview', { cookie: leader.cookie, json: {} }), 422)
  })
})

describe('GET/PATCH /api/admin/account', () => {
  it('shows the email on the unit page only once the leader ticks it, logged and rebuilt', async () => {
    const akela = await s.person({ units: [{ slug: 'troop', role: 'leader', title: 'Scoutmaster' }] })
    await s.db.updateTable('people').set({ name: 'Akela Avery' }).where('id', '=', akela.id).execute()
    const cookie = await s.signIn(akela.email)
    const shown = async () => (await unitLeaders(s.db, 'troop')).find((l) => l.name === 'Akela Avery')
    expect(await shown()).toEqual({ name: 'Akela Avery', title: 'Scoutmaster', email: null })
    const before = await s.req('GET', '/api/admin/account', { cookie })
    expect(before.body).toEqual({ email: akela.email, show_email: false, leads_a_unit: true })

    const rebuilds = s.rebuilds.count
    const res = await s.req('PATCH', '/api/admin/account', { cookie, json: { show_email: true } })
    expect(res.status).toBe(200)
    expect(res.body.show_email).toBe(true)
    expect(s.rebuilds.count).toBe(rebuilds + 1)
    expect((await s.lastLog('account.public_email')).summary).toBe('Shows their email on the public unit page')
    expect(await shown()).toEqual({ name: 'Akela Avery', title: 'Scoutmaster', email: akela.email })
    // Again: nothing changes, nothing logged, no rebuild.
    expect((await s.req('PATCH', '/api/admin/account', { cookie, json: { show_email: true } })).status).toBe(200)
    expect(s.rebuilds.count).toBe(rebuilds + 1)

    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', akela.id).execute()
    expect(await shown()).toBeUndefined()
  })

  it('answers 401 without a credential, 403 for the break-glass token, 422 for bad input', async () => {
    expectDetail(await s.req('GET', '/api/admin/account'), 401)
    expectDetail(await s.req('PATCH', '/api/admin/account', { json: { show_email: true } }), 401)
    expectDetail(await s.req('PATCH', '/api/admin/account', { token: ADMIN_TOKEN, json: { show_email: true } }), 403)
    expectDetail(await s.req('PATCH', '/api/admin/account', { cookie: leader.cookie, json: { show_email: 'yes' } }), 422)
    expectDetail(await s.req('PATCH', '/api/admin/account', { cookie: leader.cookie, json: { name: 'x' } }), 422)
    expect((await s.req('GET', '/api/admin/account', { cookie: family.cookie })).body.leads_a_unit).toBe(false)
  })
})
