// The public photos page (docs/decisions/0172): a photo a leader marked public is on the built site's /albums/ page,
// under its event (named by its unit alone when the event is for members), with no scout's name; the menu and the
// sitemap link the page once there is a photo. A family's withdrawn consent, a deactivated household, a change of
// tags, a review taken back and a takedown each rebuild the site without that photo.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES, startServerWithSite, type TestServer } from '../helpers.ts'
import { addDays, today } from '../dates.ts'
import { albumEvent, photoFamily, readyPhoto } from '../photos.ts'

let s: TestServer
let leader: { cookie: string }
beforeAll(async () => {
  s = await startServerWithSite({ PUBLIC_BASE_URL: 'https://scouts.example.org' })
  leader = await s.as(ROLES.packLeader)
}, 120_000)
afterAll(() => s.stop())

/** A page of the site once the builds asked for have finished. */
async function built(path: string) {
  expect((await s.site!.settled())?.ok ?? true).toBe(true)
  const res = await s.req('GET', path)
  expect(res.status).toBe(200)
  return res.text as string
}
const shownPhotos = async () => [...(await built('/albums/')).matchAll(/data-photo="(\d+)"/g)].map((m) => Number(m[1]))
const menuLinks = async () => (await built('/')).includes('<a href="/albums/">Photos</a>')
const review = (id: number, change: { reviewed?: boolean; public?: boolean }) =>
  s.req('PATCH', `/api/admin/photos/${id}`, { cookie: leader.cookie, json: change })

describe('the public photos page', () => {
  it('says there are none, and is neither in the menu nor in the sitemap, before a photo is public', async () => {
    expect(await built('/albums/')).toContain('No photos are shared yet.')
    expect(await menuLinks()).toBe(false)
    expect(await built('/sitemap.xml')).not.toContain('/albums/')
  })

  it('shows a public photo under its event, without names, and links it from the menu and the sitemap', async () => {
    const uid = await albumEvent(s, leader, 'pack', 'Lake campout')
    const fam = await photoFamily(s, 'pack', true)
    await s.db.updateTable('scouts').set({ first_name: 'Robin', last_name: 'Alderly' }).where('id', '=', fam.scout).execute()
    const shared = await readyPhoto(s, leader, uid, [fam.scout], { public: true })
    const familiesOnly = await readyPhoto(s, leader, uid, [fam.scout], { reviewed: true })
    expect(await shownPhotos()).toEqual([shared.id])
    const page = await built('/albums/')
    expect(page).toContain('Lake campout')
    expect(page).toContain(`src="${shared.url}"`)
    expect(page).toMatch(/<img[^>]+alt="Photo 1 from Lake campout"[^>]+width="\d+"[^>]+height="\d+"/)
    expect(page).not.toContain('Robin')
    expect(page).not.toContain('Alderly')
    expect((await fetch(s.url + shared.url)).status).toBe(200)
    expect((await fetch(s.url + familiesOnly.url)).status).toBe(404)
    expect(await menuLinks()).toBe(true)
    expect(await built('/sitemap.xml')).toContain('<loc>https://scouts.example.org/albums/</loc>')

    // Taken back: off the page at the next build.
    expect((await review(shared.id, { reviewed: false })).status).toBe(200)
    expect(await shownPhotos()).toEqual([])
    expect(await built('/albums/')).toContain('No photos are shared yet.')
    expect(await menuLinks()).toBe(false)
  })

  it('names a members-only event by its unit alone', async () => {
    const created = await s.req('POST', '/api/admin/calendar', {
      cookie: leader.cookie,
      json: { title: 'Den leaders’ planning night', date: addDays(today(), 14), unit: 'pack', visibility: 'members' },
    })
    expect(created.status).toBe(201)
    const photo = await readyPhoto(s, leader, created.body.uid, [], { public: true })
    const page = await built('/albums/')
    expect(await shownPhotos()).toContain(photo.id)
    expect(page).toContain('A pack event, ')
    expect(page).not.toContain('planning night')
    expect((await s.req('DELETE', `/api/admin/photos/${photo.id}`, { cookie: leader.cookie })).status).toBe(200)
    expect(await shownPhotos()).not.toContain(photo.id)
  })

  it('drops a photo when a family withdraws consent or a household is deactivated, and shows it again when undone', async () => {
    const uid = await albumEvent(s, leader, 'pack', 'Pinewood derby')
    const withdrawn = await photoFamily(s, 'pack', true)
    const leaving = await photoFamily(s, 'pack', true)
    const first = await readyPhoto(s, leader, uid, [withdrawn.scout], { public: true })
    const second = await readyPhoto(s, leader, uid, [leaving.scout], { public: true })
    expect(await shownPhotos()).toEqual(expect.arrayContaining([first.id, second.id]))

    const consent = (value: boolean) =>
      s.req('PATCH', `/api/admin/family/households/${withdrawn.household}`, {
        cookie: withdrawn.cookie,
        json: { scouts: [{ id: withdrawn.scout, photo_consent: value }] },
      })
    expect((await consent(false)).status).toBe(200)
    expect(await shownPhotos()).not.toContain(first.id)
    expect((await fetch(s.url + first.url)).status).toBe(404)
    expect((await consent(true)).status).toBe(200)
    expect(await shownPhotos()).toContain(first.id)

    const active = (value: boolean) =>
      s.req('PATCH', `/api/admin/roster/households/${leaving.household}`, { cookie: leader.cookie, json: { active: value } })
    expect((await active(false)).status).toBe(200)
    expect(await shownPhotos()).not.toContain(second.id)
    expect((await active(true)).status).toBe(200)
    expect(await shownPhotos()).toContain(second.id)
  })

  it('drops a photo whose tags change or that a family asks to take down', async () => {
    const uid = await albumEvent(s, leader, 'pack', 'Service day')
    const fam = await photoFamily(s, 'pack', true)
    const other = await photoFamily(s, 'pack', true)
    const retagged = await readyPhoto(s, leader, uid, [fam.scout], { public: true })
    const down = await readyPhoto(s, leader, uid, [fam.scout], { public: true })
    expect(await shownPhotos()).toEqual(expect.arrayContaining([retagged.id, down.id]))
    const tags = { scout_ids: [fam.scout, other.scout] }
    expect((await s.req('PUT', `/api/admin/photos/${retagged.id}/scouts`, { cookie: leader.cookie, json: tags })).status).toBe(200)
    expect(await shownPhotos()).not.toContain(retagged.id)
    expect((await s.req('POST', `/api/admin/photos/${down.id}/takedown`, { cookie: fam.cookie, json: {} })).status).toBe(200)
    expect(await shownPhotos()).not.toContain(down.id)
  })
})
