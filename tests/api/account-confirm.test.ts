// "Confirm it's you": adding a passkey, starting or removing the authenticator app, new recovery codes and minting a
// key need the session to have confirmed it is its person in the last 10 minutes (signing in does not count); wrong
// answers are slowed down and logged; every factor or key change is mailed to the person as a security notice.
import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { Secret, TOTP } from 'otpauth'
import { PASSWORD, ROLES, startServer, type TestServer } from '../helpers.ts'
import { startRelay, type TestRelay } from '../mail.ts'

let relay: TestRelay
let s: TestServer
beforeAll(async () => {
  relay = await startRelay()
  s = await startServer({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }, { mailRetryMs: 200 })
})
afterAll(async () => {
  await s.stop()
  await relay.close()
})

const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate()
const confirm = (cookie: string, json: Record<string, unknown>) => s.req('POST', '/api/admin/account/confirm', { cookie, json })

/** Each route a stolen session could use to keep the account: method, path, body. */
const GUARDED: [string, string, Record<string, unknown> | undefined][] = [
  ['POST', '/api/admin/account/passkeys/options', undefined],
  [
    'POST',
    '/api/admin/account/passkeys',
    {
      name: 'Phone',
      response: {
        id: 'x',
        rawId: 'x',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'o2M' },
        clientExtensionResults: {},
      },
    },
  ],
  ['POST', '/api/admin/account/totp', undefined],
  ['DELETE', '/api/admin/account/totp', { code: '123456' }],
  ['POST', '/api/admin/account/recovery-codes', { password: PASSWORD }],
  ['POST', '/api/admin/keys', { label: 'script', scopes: ['leads:read'] }],
]

describe('POST /api/admin/account/confirm', () => {
  it('is needed within 10 minutes before adding a factor or minting a key: a fresh sign-in is not enough (403 confirm_required)', async () => {
    const p = await s.as(ROLES.admin)
    for (const [method, path, json] of GUARDED) {
      const res = await s.req(method, path, { cookie: p.cookie, json })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.code, `${method} ${path}`).toBe('confirm_required')
    }
    const ok = await confirm(p.cookie, { password: PASSWORD })
    expect(ok.status).toBe(200)
    expect(Date.parse(ok.body.confirmed_until) - Date.now()).toBeGreaterThan(9 * 60_000)
    expect((await s.lastLog('account.confirm')).actor).toBe(p.email)
    expect((await s.req('POST', '/api/admin/keys', { cookie: p.cookie, json: { label: 'script', scopes: ['leads:read'] } })).status).toBe(
      201,
    )
    expect((await s.req('POST', '/api/admin/account/passkeys/options', { cookie: p.cookie })).status).toBe(200)
    // Another session of the same person is not confirmed by this one.
    const other = await s.signIn(p.email)
    expect((await s.req('POST', '/api/admin/account/totp', { cookie: other })).body.code).toBe('confirm_required')
    try {
      setSystemTime(new Date(Date.now() + 10 * 60_000 + 1000))
      const late = await s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })
      expect(late.status).toBe(403)
      expect(late.body.code).toBe('confirm_required')
    } finally {
      setSystemTime()
    }
  })

  it('takes a code from the authenticator app or a recovery code; 422 for a wrong one, 400 for none or two', async () => {
    const p = await s.as(ROLES.packLeader)
    await s.confirm(p.cookie)
    const secret = (await s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })).body.secret
    const added = await s.req('POST', '/api/admin/account/totp/confirm', { cookie: p.cookie, json: { code: codeFor(secret) } })
    // As if ten minutes had passed: the session must confirm again.
    await s.db.updateTable('sessions').set({ confirmed_at: null }).where('person_id', '=', p.id).execute()
    expect((await confirm(p.cookie, {})).status).toBe(400)
    expect((await confirm(p.cookie, { password: PASSWORD, code: '123456' })).status).toBe(400)
    expect((await confirm(p.cookie, { code: '000000' })).status).toBe(422)
    expect((await s.lastLog('login.failure')).summary).toContain('Wrong code to confirm it is them')
    expect((await confirm(p.cookie, { code: added.body.recovery_codes[0] })).status).toBe(200)
    expect((await s.lastLog('account.confirm')).summary).toContain('a recovery code')
    // The recovery code is used up.
    expect((await confirm(p.cookie, { code: added.body.recovery_codes[0] })).status).toBe(422)
  })

  it('checks a wrong password under the sign-in slow-down and logs it', async () => {
    const p = await s.as(ROLES.member)
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await confirm(p.cookie, { password: `wrong ${i}` })).status)
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422])
    expect(statuses).toContain(429)
    expect((await s.lastLog('login.failure')).summary).toContain(p.email)
  })

  it('gives passkey options with the person’s passkeys; a made-up answer is 422', async () => {
    const p = await s.as(ROLES.member)
    const options = await s.req('POST', '/api/admin/account/confirm/options', { cookie: p.cookie })
    expect(options.status).toBe(200)
    expect(typeof options.body.challenge).toBe('string')
    const fake = {
      id: 'abc',
      rawId: 'abc',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
      clientExtensionResults: {},
    }
    expect((await confirm(p.cookie, { passkey: fake })).status).toBe(422)
  })

  it('is for a signed-in person only: a key gets 403 session_required', async () => {
    const p = await s.as(ROLES.admin)
    const { key } = await s.mintKey(p.cookie, ['account:self'])
    const res = await s.req('POST', '/api/admin/account/confirm', { key, json: { password: PASSWORD } })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('session_required')
  })
})

describe('security notices', () => {
  it('mails the person when a key is minted or a factor is added or removed, naming the change', async () => {
    const p = await s.as(ROLES.admin)
    await s.mintKey(p.cookie, ['leads:read'], { label: 'backup script' })
    const minted = await relay.waitFor(p.email)
    expect(minted.subject).toContain('Security notice')
    expect(minted.text).toContain('An API key “backup script” was made')
    expect(minted.text).toContain('If it was not you')
    const before = relay.received.length
    const secret = (await s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })).body.secret
    await s.req('POST', '/api/admin/account/totp/confirm', { cookie: p.cookie, json: { code: codeFor(secret) } })
    const added = (await relay.waitForCount(before + 1)).slice(before).find((m) => m.to.includes(p.email))
    expect(added?.text).toContain('An authenticator app was added')
    expect((await s.lastLog('account.totp_add')).actor).toBe(p.email)
  })
})
