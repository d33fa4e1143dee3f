// The family's own side of the roster: a linked parent changes their household's contacts, emergency contact and
// their scouts' preferred names and photo consent (logged as the parent), and sees the leaders of their scouts' units.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES, startServer, type TestServer } from '../helpers.ts'
import { addHousehold, familyAccount } from '../households.ts'

let s: TestServer
beforeAll(async () => {
  s = await startServer()
})
afterAll(() => s.stop())

const path = (id: number) => `/api/admin/family/households/${id}`
const hale = () =>
  familyAccount(s, {
    unit: 'pack',
    email: 'hale.home@example.org',
    parent_name: 'Robin Hale',
    phone: '555-111-2222',
    scouts: [{ first_name: 'Jamie' }, { first_name: 'Alex' }],
  })

describe('PATCH /api/admin/family/households/:id', () => {
  it('changes contacts, the emergency contact and scouts, answers the household as the family sees it, and logs it as the parent', async () => {
    const f = await hale()
    const res = await s.req('PATCH', path(f.household), {
      cookie: f.cookie,
      json: {
        phone: '555-333-4444',
        second_parent: 'Sam Hale',
        emergency_contact: { name: 'Pat Hale', phone: '555-987-6543' },
        scouts: [{ id: f.scouts[0], preferred_name: 'Jay', photo_consent: true }],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: f.household,
      email: 'hale.home@example.org',
      phone: '555-333-4444',
      second_parent: 'Sam Hale',
      emergency_name: 'Pat Hale',
      emergency_phone: '555-987-6543',
    })
    expect(res.body.notes).toBeUndefined()
    const [jamie, alex] = [f.scouts[0], f.scouts[1]].map((id) => res.body.scouts.find((sc: any) => sc.id === id))
    expect(jamie).toMatchObject({ preferred_name: 'Jay', photo_consent: true })
    expect(alex).toMatchObject({ preferred_name: null, photo_consent: false })
    const log = await s.lastLog('roster.household_update')
    expect(log.actor).toBe(f.email)
    expect(log.summary).toBe(
      "Robin Hale's household, by the family: phone, second parent and emergency contact; Jamie goes by Jay, photos OK",
    )

    // A GET of the same path answers the same shape, with the ETag a careful PATCH sends back; another family's is 404.
    const read = await s.req('GET', path(f.household), { cookie: f.cookie })
    expect(read.body).toEqual(res.body)
    expect(read.headers.get('etag')).toBe(res.headers.get('etag'))
    const other = await familyAccount(s, { unit: 'troop', email: 'other.home@example.org', parent_name: 'Other Family' })
    expect((await s.req('GET', path(f.household), { cookie: other.cookie })).status).toBe(404)
    const stale = await s.req('PATCH', path(f.household), {
      cookie: f.cookie,
      json: { phone: '555-000-0000' },
      headers: { 'if-match': '"old"' },
    })
    expect([stale.status, stale.body.code]).toEqual([412, 'precondition_failed'])

    // Null takes the emergency contact away; the same values again change nothing and log nothing.
    const cleared = await s.req('PATCH', path(f.household), { cookie: f.cookie, json: { emergency_contact: null } })
    expect(cleared.body).toMatchObject({ emergency_name: null, emergency_phone: null, phone: '555-333-4444' })
    const logged = (await s.lastLog('roster.household_update')).id
    const again = await s.req('PATCH', path(f.household), { cookie: f.cookie, json: { phone: '555-333-4444' } })
    expect(again.status).toBe(200)
    expect((await s.lastLog('roster.household_update')).id).toBe(logged)
  })

  it("lets the family fix the second parent's email: shown, changed and logged; 422 when it is not an address", async () => {
    const f = await hale()
    const res = await s.req('PATCH', path(f.household), { cookie: f.cookie, json: { second_email: 'jo.hale@example.org' } })
    expect(res.status).toBe(200)
    expect(res.body.second_email).toBe('jo.hale@example.org')
    expect((await s.lastLog('roster.household_update')).summary).toContain('second email')
    expect((await s.req('GET', path(f.household), { cookie: f.cookie })).body.second_email).toBe('jo.hale@example.org')
    expect((await s.req('PATCH', path(f.household), { cookie: f.cookie, json: { second_email: 'nope' } })).status).toBe(422)
  })

  it("is only for the caller's own households: 404 for another family's and for none; 401 signed out", async () => {
    const f = await hale()
    const other = await addHousehold(s.db, { unit: 'pack', email: null })
    expect((await s.req('PATCH', path(other), { cookie: f.cookie, json: { phone: '555-000-0000' } })).status).toBe(404)
    expect((await s.req('PATCH', path(999999), { cookie: f.cookie, json: { phone: '555-000-0000' } })).status).toBe(404)
    // If-Match does not tell another family's household from none: 404 either way, never a failed precondition.
    for (const tag of ['"guess"', '*']) {
      const sent = { cookie: f.cookie, json: { phone: '555-000-0000' }, headers: { 'if-match': tag } }
      expect([(await s.req('PATCH', path(other), sent)).status, (await s.req('PATCH', path(999999), sent)).status]).toEqual([404, 404])
    }
    expect((await s.req('PATCH', path(f.household), { json: { phone: '555-000-0000' } })).status).toBe(401)
    // A leader is no exception: a household they are not linked to is not theirs to change here.
    const leader = await s.as(ROLES.packLeader)
    expect((await s.req('PATCH', path(f.household), { cookie: leader.cookie, json: { phone: '555-000-0000' } })).status).toBe(404)
    expect((await s.req('PATCH', path(f.household), { token: ADMIN_TOKEN, json: { phone: '555-000-0000' } })).status).toBe(403)
  })

  it('refuses fields the family does not keep, bad values and a scout of another household with 422, changing nothing', async () => {
    const f = await hale()
    const other = await hale()
    const refused = async (json: unknown, field: string) => {
      const res = await s.req('PATCH', path(f.household), { cookie: f.cookie, json })
      expect(res.status).toBe(422)
      expect(res.body.detail).toStartWith(`${field}: `)
    }
    await refused({ notes: 'mine now' }, 'notes')
    await refused({ parent_name: 'Someone Else' }, 'parent_name')
    await refused({ phone: 'call me' }, 'phone')
    await refused({ emergency_contact: { name: 'Pat', phone: 'nope' } }, 'emergency_contact.phone')
    await refused({ emergency_contact: { name: '', phone: '555-987-6543' } }, 'emergency_contact.name')
    await refused({ scouts: [{ id: f.scouts[0], first_name: 'Max' }] }, 'scouts.0.first_name')
    await refused({ phone: '555-999-8888', scouts: [{ id: other.scouts[0], photo_consent: true }] }, 'scouts.0.id')
    const after = await s.db.selectFrom('households').select('phone').where('id', '=', f.household).executeTakeFirstOrThrow()
    expect(after.phone).toBe('555-111-2222')
    const theirs = await s.db.selectFrom('scouts').select('photo_consent').where('id', '=', other.scouts[0]).executeTakeFirstOrThrow()
    expect(theirs.photo_consent).toBe(0)
  })

  it('takes a key of the parent that holds account:self; 403 for one without', async () => {
    const parent = await s.as(ROLES.packLeader)
    const household = await addHousehold(s.db, { unit: 'pack', email: null, accounts: [parent.id] })
    const self = await s.mintKey(parent.cookie, ['account:self'])
    const other = await s.mintKey(parent.cookie, ['leads:read'])
    const res = await s.req('PATCH', path(household), { key: self.key, json: { phone: '555-222-3333' } })
    expect(res.status).toBe(200)
    expect((await s.lastLog('roster.household_update')).actor).toContain(parent.email)
    expect((await s.req('PATCH', path(household), { key: other.key, json: { phone: '555-222-3333' } })).status).toBe(403)
  })
})

describe('GET /api/admin/family: leaders', () => {
  it("lists the leaders of the household's scouts' units with title and email, not other units' nor disabled ones", async () => {
    const cubmaster = await s.person({
      email: 'cubmaster.family@example.org',
      units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }],
    })
    await s.db.updateTable('people').set({ name: 'Casey Cubmaster' }).where('id', '=', cubmaster.id).execute()
    const gone = await s.person({ units: [{ slug: 'pack', role: 'leader' }] })
    await s.db.updateTable('people').set({ disabled_at: new Date().toISOString() }).where('id', '=', gone.id).execute()
    const scoutmaster = await s.person({ units: [{ slug: 'troop', role: 'leader', title: 'Scoutmaster' }] })
    const f = await hale()
    const res = await s.req('GET', '/api/admin/family', { cookie: f.cookie })
    expect(res.status).toBe(200)
    expect(res.body.leaders).toContainEqual({
      name: 'Casey Cubmaster',
      title: 'Cubmaster',
      email: 'cubmaster.family@example.org',
      unit: expect.any(String),
    })
    const emails = res.body.leaders.map((l: any) => l.email)
    expect(emails).not.toContain(gone.email)
    expect(emails).not.toContain(scoutmaster.email)
    const stranger = await s.as(ROLES.member)
    expect((await s.req('GET', '/api/admin/family', { cookie: stranger.cookie })).body.leaders).toEqual([])
  })
})
