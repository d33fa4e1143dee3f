// The consent rule, tried on every photo URL: photos with consenting and non-consenting scouts, reviewed or not,
// public or not, taken down, or with consent withdrawn after; EVERY size of each is requested as each role, and
// exactly the expected roles get 200 (everyone else 404, the same as an unknown photo). The album lists the same set.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SESSION_COOKIE } from '../../server/auth/sessions.ts'
import { ROLES, startServer, type TestServer } from '../helpers.ts'
import { albumEvent, eventPath, photoFamily, readyPhoto, upload } from '../photos.ts'

let s: TestServer
afterAll(() => s.stop())

type Role =
  | 'anonymous'
  | 'expired session'
  | 'other unit’s family'
  | 'other unit’s leader'
  | 'event’s family'
  | 'family without consent'
  | 'non-tagged family'
  | 'leader'
const FAMILIES: Role[] = ['event’s family', 'family without consent', 'non-tagged family']
const OUTSIDERS: Role[] = ['anonymous', 'expired session', 'other unit’s family', 'other unit’s leader']
const cookies = {} as Record<Role, string | undefined>
/** Photo name → the roles that may open it. */
const expected = new Map<string, Role[]>()
const photos = new Map<string, { id: number; sizes: { url: string }[] }>()
let uid: string
let nonConsenting: number[]

beforeAll(async () => {
  s = await startServer()
  const leader = await s.as(ROLES.packLeader)
  uid = await albumEvent(s, leader)
  const a = await photoFamily(s, 'pack', true, uid) // the event's family: their scout consents
  const b = await photoFamily(s, 'pack', false, uid) // their scout has no photo consent
  const c = await photoFamily(s, 'pack', true) // consents, then withdraws it
  const plain = await photoFamily(s, 'pack', true) // in the unit, in no photo
  Object.assign(cookies, {
    anonymous: undefined,
    'expired session': `${SESSION_COOKIE}=not-a-session-anyone-has`,
    'other unit’s family': (await photoFamily(s, 'troop', true)).cookie,
    'other unit’s leader': (await s.as(ROLES.troopLeader)).cookie,
    'event’s family': a.cookie,
    'family without consent': b.cookie,
    'non-tagged family': plain.cookie,
    leader: leader.cookie,
  } satisfies Record<Role, string | undefined>)

  const add = async (name: string, scouts: number[], state: { reviewed?: boolean; public?: boolean }, who: Role[]) => {
    photos.set(name, await readyPhoto(s, leader, uid, scouts, state))
    expected.set(name, ['leader', ...who])
  }
  await add('consenting, reviewed', [a.scout], { reviewed: true }, FAMILIES)
  await add('untagged, reviewed', [], { reviewed: true }, FAMILIES)
  await add('consenting, public', [a.scout], { public: true }, [...FAMILIES, ...OUTSIDERS])
  await add('untagged, public', [], { public: true }, [...FAMILIES, ...OUTSIDERS])
  await add('non-consenting, reviewed', [b.scout], { reviewed: true }, [])
  await add('consenting and non-consenting, reviewed', [a.scout, b.scout], { reviewed: true }, [])
  await add('consenting, not reviewed', [a.scout], {}, [])
  await add('public, then consent withdrawn', [c.scout], { public: true }, [])
  const withdrawn = await s.req('PATCH', `/api/admin/family/households/${c.household}`, {
    cookie: c.cookie,
    json: { scouts: [{ id: c.scout, photo_consent: false }] },
  })
  expect(withdrawn.status).toBe(200)
  await add('reviewed, then taken down', [a.scout], { reviewed: true }, [])
  const down = await s.req('POST', `/api/admin/photos/${photos.get('reviewed, then taken down')!.id}/takedown`, { cookie: a.cookie })
  expect(down.status).toBe(200)
  const fromFamily = await upload(s, a.cookie, uid)
  expect(fromFamily.status).toBe(201)
  photos.set('sent by a family, not reviewed', fromFamily.body)
  expected.set('sent by a family, not reviewed', ['leader'])
  nonConsenting = [b.scout, c.scout]
})

describe('every photo URL, as each role', () => {
  it('answers 200 to exactly the roles the rule allows, 404 to everyone else, for every size', async () => {
    const got: Record<string, Record<string, number[]>> = {}
    const want: Record<string, Record<string, number[]>> = {}
    for (const [name, photo] of photos) {
      expect(photo.sizes.length).toBe(6)
      for (const role of Object.keys(cookies) as Role[]) {
        const statuses: number[] = []
        for (const size of photo.sizes) {
          const cookie = cookies[role]
          statuses.push((await fetch(s.url + size.url, { headers: cookie ? { cookie } : {} })).status)
        }
        ;(got[name] ??= {})[role] = statuses
        ;(want[name] ??= {})[role] = photo.sizes.map(() => (expected.get(name)!.includes(role) ? 200 : 404))
      }
    }
    expect(got).toEqual(want)
  })

  it('shows a scout without consent in no photo any family or visitor can open', async () => {
    const album = (await s.req('GET', `${eventPath(uid)}/photos`, { cookie: cookies.leader })).body
    const withThem = album.photos.filter((p: any) => p.scouts.some((t: any) => nonConsenting.includes(t.id)))
    expect(withThem.length).toBe(3)
    for (const photo of withThem) {
      expect(photo.shown_to).toBe('leaders')
      for (const role of [...FAMILIES, ...OUTSIDERS])
        for (const size of photo.sizes) {
          const cookie = cookies[role]
          expect((await fetch(s.url + size.url, { headers: cookie ? { cookie } : {} })).status, `${role} ${size.url}`).toBe(404)
        }
    }
  })

  it('lists in each role’s album exactly the photos whose URLs answer it', async () => {
    for (const role of Object.keys(cookies) as Role[]) {
      const cookie = cookies[role]
      if (!cookie || role === 'expired session') continue // the album is the admin API: these get 401
      const listed = (await s.req('GET', `${eventPath(uid)}/photos`, { cookie })).body.photos.map((p: any) => p.id).sort()
      const allowed = [...photos]
        .filter(([name]) => expected.get(name)!.includes(role))
        .map(([, p]) => p.id)
        .sort()
      expect(listed, role).toEqual(allowed)
    }
    expect((await s.req('GET', `${eventPath(uid)}/photos`)).status).toBe(401)
  })
})
