// Address rules over a real port: LAN-only keys and break-glass token, ADMIN_TOKEN unset, and X-Forwarded-For trust.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readEnv } from '../../server/env.ts'
import { Logger, useLogger } from '../../server/ops/log.ts'
import { ADMIN_TOKEN, expectDetail, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'

type Credential = { cookie?: string; key?: string; token?: string; headers?: Record<string, string> }

const whoami = (s: TestServer, o: Credential) => s.req('GET', '/api/admin/whoami', o)

describe('GET /api/admin/whoami from the LAN (default LAN_CIDRS, loopback peer)', () => {
  let s: TestServer
  let key: string
  beforeAll(async () => {
    s = await startServer()
    const owner = await s.as(ROLES.owner)
    key = (await s.mintKey(owner.cookie, ['leads:read'])).key
  })
  afterAll(() => s.stop())

  it('answers 200 to a key while api_keys_from is lan', async () => {
    const setting = await s.req('GET', '/api/admin/settings', { token: ADMIN_TOKEN })
    expect(setting.body.settings.find((x: any) => x.key === 'api_keys_from').value).toBe('lan')
    const res = await whoami(s, { key })
    expect(res.status).toBe(200)
    expect(res.body.via).toBe('key')
  })

  it('answers 200 to the break-glass token, with every capability but the ones that need a person', async () => {
    const res = await whoami(s, { token: ADMIN_TOKEN })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ via: 'break_glass', person: null })
    expect(res.body.capabilities).toContain('settings:write')
    for (const c of [
      'apikeys:own',
      'account:self',
      'roster:write',
      'api:docs',
      'people:invite_leader',
      'people:invite_admin',
      'people:manage',
    ])
      expect(res.body.capabilities).not.toContain(c)
  })

  it('answers 401 to a wrong break-glass token', async () => {
    expectDetail(await whoami(s, { token: 'not-the-token' }), 401)
    expectDetail(await whoami(s, { token: ADMIN_TOKEN + 'x' }), 401)
    expectDetail(await s.req('GET', '/api/admin/settings', { token: 'not-the-token' }), 401)
  })
})

describe('GET /api/admin/whoami with ADMIN_TOKEN unset', () => {
  let s: TestServer
  beforeAll(async () => (s = await startServer({ ADMIN_TOKEN: '' })))
  afterAll(() => s.stop())

  it('answers 401 to the break-glass header, whatever it holds', async () => {
    expectDetail(await whoami(s, { token: ADMIN_TOKEN }), 401)
    expectDetail(await whoami(s, { headers: { 'x-admin-token': '' } }), 401)
    expectDetail(await s.req('GET', '/api/admin/settings', { token: ADMIN_TOKEN }), 401)
  })

  it('still answers 200 to a session', async () => {
    const admin = await s.as(ROLES.admin)
    expect((await whoami(s, { cookie: admin.cookie })).status).toBe(200)
  })
})

describe('GET /api/admin/whoami from outside the LAN (LAN_CIDRS=10.0.0.0/8, no TRUST_PROXY)', () => {
  let s: TestServer
  let owner: { id: number; email: string; cookie: string }
  let key: string
  beforeAll(async () => {
    s = await startServer({ LAN_CIDRS: '10.0.0.0/8' })
    owner = await s.as(ROLES.owner)
    key = (await s.mintKey(owner.cookie, ['leads:read'])).key
  })
  afterAll(() => s.stop())

  it('answers 200 to a session: sessions are never restricted by network', async () => {
    const res = await whoami(s, { cookie: owner.cookie })
    expect(res.status).toBe(200)
    expect(res.body.via).toBe('session')
    expect((await s.req('GET', '/api/admin/leads', { cookie: owner.cookie })).status).toBe(200)
  })

  it('answers 403 to a key while api_keys_from is lan (the default)', async () => {
    expectDetail(await whoami(s, { key }), 403)
    expectDetail(await s.req('GET', '/api/admin/leads', { key }), 403)
  })

  it('answers 403 to the break-glass token, even the right one, on every route', async () => {
    expectDetail(await whoami(s, { token: ADMIN_TOKEN }), 403)
    expectDetail(await s.req('GET', '/api/admin/settings', { token: ADMIN_TOKEN }), 403)
    expectDetail(await s.req('PUT', '/api/admin/settings/api_keys_from', { token: ADMIN_TOKEN, json: { value: 'anywhere' } }), 403)
  })

  it('ignores X-Forwarded-For from an untrusted peer', async () => {
    expectDetail(await whoami(s, { key, headers: { 'x-forwarded-for': '10.1.2.3' } }), 403)
    expectDetail(await whoami(s, { token: ADMIN_TOKEN, headers: { 'x-forwarded-for': '10.1.2.3' } }), 403)
  })

  it('answers 200 to the same key once api_keys_from is anywhere; the break-glass token stays 403', async () => {
    const put = await s.req('PUT', '/api/admin/settings/api_keys_from', { cookie: owner.cookie, json: { value: 'anywhere' } })
    expect(put.status).toBe(200)
    try {
      const res = await whoami(s, { key })
      expect(res.status).toBe(200)
      expect(res.body.via).toBe('key')
      expect((await s.req('GET', '/api/admin/leads', { key })).status).toBe(200)
      expectDetail(await whoami(s, { token: ADMIN_TOKEN }), 403)
    } finally {
      expect((await s.req('PUT', '/api/admin/settings/api_keys_from', { cookie: owner.cookie, json: { value: null } })).status).toBe(200)
    }
    expectDetail(await whoami(s, { key }), 403)
  })
})

describe('GET /api/admin/whoami behind a trusted proxy (TRUST_PROXY=127.0.0.1/32, LAN_CIDRS=10.0.0.0/8)', () => {
  let s: TestServer
  let key: string
  beforeAll(async () => {
    s = await startServer({ LAN_CIDRS: '10.0.0.0/8', TRUST_PROXY: '127.0.0.1/32' })
    const owner = await s.as(ROLES.owner)
    key = (await s.mintKey(owner.cookie, ['leads:read'])).key
  })
  afterAll(() => s.stop())

  const withXff = (xff: string, o: Credential = { key }) => whoami(s, { ...o, headers: { 'x-forwarded-for': xff } })

  it('answers 200 to a key forwarded for a LAN address', async () => {
    const res = await withXff('10.1.2.3')
    expect(res.status).toBe(200)
    expect(res.body.via).toBe('key')
  })

  it('answers 403 to a key forwarded for an outside address', async () => {
    expectDetail(await withXff('8.8.8.8'), 403)
  })

  it('answers 403 when the forwarded entry is malformed', async () => {
    expectDetail(await withXff('garbage'), 403)
    expectDetail(await withXff('10.1.2.3, garbage'), 403)
  })

  it('answers 403 without the header (the proxy itself is outside the LAN)', async () => {
    expectDetail(await whoami(s, { key }), 403)
  })

  it('believes the right-most entry, not one the client wrote to its left', async () => {
    expect((await withXff('8.8.8.8, 10.1.2.3')).status).toBe(200)
    expectDetail(await withXff('10.1.2.3, 8.8.8.8'), 403)
    expect((await withXff('8.8.8.8, 10.1.2.3, 127.0.0.1')).status).toBe(200)
  })

  it('applies the same address to the break-glass token', async () => {
    expect((await withXff('10.9.9.9', { token: ADMIN_TOKEN })).status).toBe(200)
    expectDetail(await withXff('1.1.1.1', { token: ADMIN_TOKEN }), 403)
  })
})

describe('a reverse proxy on this machine that TRUST_PROXY does not name (default LAN_CIDRS, loopback peer)', () => {
  let s: TestServer
  let key: string
  const lines: string[] = []
  beforeAll(async () => {
    useLogger(new Logger('text', (line) => lines.push(line)))
    s = await startServer()
    const owner = await s.as(ROLES.owner)
    key = (await s.mintKey(owner.cookie, ['leads:read'])).key
  })
  afterAll(async () => {
    useLogger(null)
    await s.stop()
  })

  it('treats a forwarded client as unknown, never the LAN: the break-glass token and a lan-only key are refused (403)', async () => {
    const health = async () => (await s.req('GET', '/healthz')).body.checks.proxy
    expect(await health()).toEqual({ ok: true, required: false, untrusted_proxy_since: null })
    const forwarding: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
    ]
    for (const headers of forwarding) {
      expectDetail(await whoami(s, { token: ADMIN_TOKEN, headers }), 403)
      expectDetail(await whoami(s, { key, headers }), 403)
    }
    // Without the headers the loopback peer is the LAN as before.
    expect((await whoami(s, { token: ADMIN_TOKEN })).status).toBe(200)
    const proxy = await health()
    expect(proxy).toMatchObject({ ok: false, required: false })
    expect(Date.parse(proxy.untrusted_proxy_since)).toBeGreaterThan(0)
    const said = lines.filter((l) => l.includes('proxy.untrusted'))
    expect(said.length).toBe(1)
    expect(said[0]).toContain('TRUST_PROXY=127.0.0.1/32,::1/128')
  })
})

describe('an empty X-Forwarded-For from a trusted proxy', () => {
  it('makes the client unknown, not the proxy (which is the LAN here): 403 for the break-glass token', async () => {
    const s = await startServer({ TRUST_PROXY: '127.0.0.1/32' })
    try {
      expectDetail(await whoami(s, { token: ADMIN_TOKEN, headers: { 'x-forwarded-for': '' } }), 403)
      expect((await whoami(s, { token: ADMIN_TOKEN, headers: { 'x-forwarded-for': '192.168.1.9' } })).status).toBe(200)
    } finally {
      await s.stop()
    }
  })
})

describe('guessing the break-glass token from the LAN', () => {
  it('slows wrong tokens down per address (429 with Retry-After, the right token too meanwhile) and logs them', async () => {
    await withServer({}, async (s) => {
      const statuses: number[] = []
      for (let i = 0; i < 8; i++) statuses.push((await whoami(s, { token: `wrong-token-${i}` })).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429])
      const right = await whoami(s, { token: ADMIN_TOKEN })
      expect(right.status).toBe(429)
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      const logged = await s.db
        .selectFrom('action_log')
        .select(['summary', 'actor'])
        .where('kind', '=', 'login.break_glass')
        .orderBy('id')
        .execute()
      expect(logged.length).toBe(6)
      expect(logged[0]).toEqual({ actor: 'anonymous', summary: 'A wrong break-glass token from 127.0.0.1' })
      expect(logged.at(-1)!.summary).toContain('4 refused in a minute')
    })
  })

  it('answers 400 ambiguous_credentials to a key sent with the token, and counts no wrong token for it', async () => {
    await withServer({}, async (s) => {
      const key = (await s.mintKey((await s.as(ROLES.owner)).cookie, ['leads:read'])).key
      for (let i = 0; i < 8; i++) {
        const both = await whoami(s, { key, token: `wrong-token-${i}` })
        expectDetail(both, 400)
        expect(both.body.code).toBe('ambiguous_credentials')
      }
      expect((await whoami(s, { key, token: ADMIN_TOKEN })).body.code).toBe('ambiguous_credentials')
      expect((await whoami(s, { headers: { authorization: 'Bearer not-a-key' }, token: ADMIN_TOKEN })).status).toBe(400)
      expect((await whoami(s, { token: ADMIN_TOKEN })).status).toBe(200)
      const logged = await s.db.selectFrom('action_log').select('id').where('kind', '=', 'login.break_glass').execute()
      expect(logged).toHaveLength(0)
    })
  })

  it('refuses to start with an ADMIN_TOKEN shorter than 32 characters, saying so', () => {
    expect(() => readEnv({ ADMIN_TOKEN: 'short-token' })).toThrow('ADMIN_TOKEN must be at least 32 characters')
    expect(() => readEnv({ ADMIN_TOKEN: 'x'.repeat(32) })).toThrow('ADMIN_TOKEN must be a random token')
    expect(() => readEnv({ ADMIN_TOKEN: ' '.repeat(40) })).toThrow('ADMIN_TOKEN must be a random token')
    expect(() => readEnv({ ADMIN_TOKEN: 'a good token with spaces in it 12345' })).toThrow('ADMIN_TOKEN must be a random token')
    expect(readEnv({ ADMIN_TOKEN: 'Jq3xV9mT2kLp8sWc4nRb7yHd1fGz6aE0' }).adminToken).toBe('Jq3xV9mT2kLp8sWc4nRb7yHd1fGz6aE0')
    // Plainly made up: a short pattern repeated, a run, a run repeated.
    for (const madeUp of [
      'abcdefghijk'.repeat(3),
      'Secret-Pass-1234'.repeat(2),
      '0123456789abcdefghijklmnopqrstuvwxyz',
      '0123456789abcdef'.repeat(4),
      'zyxwvutsrqponmlkjihgfedcba9876543210',
    ])
      expect(() => readEnv({ ADMIN_TOKEN: madeUp }), madeUp).toThrow('ADMIN_TOKEN must be a random token')
    // What openssl rand -hex 32 and -base64 32 give always passes.
    for (let i = 0; i < 20; i++)
      for (const token of [randomBytes(32).toString('hex'), randomBytes(32).toString('base64'), randomBytes(24).toString('base64url')])
        expect(readEnv({ ADMIN_TOKEN: token }).adminToken).toBe(token)
    expect(readEnv({ ADMIN_TOKEN }).adminToken).toBe(ADMIN_TOKEN)
    const dir = mkdtempSync(path.join(tmpdir(), 'short-token-'))
    try {
      const run = Bun.spawnSync([process.execPath, path.join(import.meta.dir, '..', '..', 'server', 'main.ts')], {
        cwd: dir,
        env: { ...process.env, DATABASE_PATH: path.join(dir, 'site.db'), PORT: '0', ADMIN_TOKEN: 'hunter2' },
      })
      expect(run.exitCode).toBe(1)
      expect(run.stderr.toString()).toStartWith('Cannot start: ADMIN_TOKEN must be at least 32 characters (it has 7)')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
