// What a reset or invite link's page asks before the password is chosen: the account it is for, and nothing about
// a link that does not work.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectDetail, ROLES, startServer, type TestServer, uniqueEmail } from '../helpers.ts'

let s: TestServer
let owner: { id: number; email: string; cookie: string }
beforeAll(async () => {
  s = await startServer()
  owner = await s.as(ROLES.owner)
})
afterAll(() => s.stop())

const tokenOf = (url: string) => url.split('/').at(-1)!

describe('GET /api/reset/:token', () => {
  it('names the account of a working link (200), 404 for an unknown one and 410 once used, without the email', async () => {
    const target = await s.person(ROLES.member)
    const issued = await s.req('POST', `/api/admin/people/${target.id}/reset`, { cookie: owner.cookie, json: {} })
    const token = tokenOf(issued.body.url)
    const peek = await s.req('GET', `/api/reset/${token}`)
    expect(peek.status).toBe(200)
    expect(peek.body).toEqual({ email: target.email, expires_at: issued.body.expires_at })
    const unknown = await s.req('GET', '/api/reset/no-such-token')
    expectDetail(unknown, 404)
    expect((await s.req('POST', `/api/reset/${token}`, { json: { password: 'a brand new password' } })).status).toBe(200)
    const used = await s.req('GET', `/api/reset/${token}`)
    expectDetail(used, 410)
    expect(used.text).not.toContain(target.email)
  })
})

describe('GET /api/invite/:token', () => {
  it('names the invited email of a working invite (200), 404 for an unknown one and 410 once revoked, without the email', async () => {
    const email = uniqueEmail('invited')
    const issued = await s.req('POST', '/api/admin/people/invite', { cookie: owner.cookie, json: { email } })
    const token = tokenOf(issued.body.url)
    const peek = await s.req('GET', `/api/invite/${token}`)
    expect(peek.status).toBe(200)
    expect(peek.body).toEqual({ email, expires_at: issued.body.expires_at })
    expectDetail(await s.req('GET', '/api/invite/no-such-token'), 404)
    await s.req('DELETE', `/api/admin/people/invite/${issued.body.id}`, { cookie: owner.cookie })
    const revoked = await s.req('GET', `/api/invite/${token}`)
    expectDetail(revoked, 410)
    expect(revoked.text).not.toContain(email)
  })
})
