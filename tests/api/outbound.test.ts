// Calls to addresses from settings and ingested data (SSRF): never a redirect, never this machine or a private
// network unless OUTBOUND_ALLOW names it, checked on the address connected to; such a literal is refused when it is
// written, and leaders read plain words while the service log keeps the detail.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { Outbound, OutboundRefused } from '../../server/http/outbound.ts'
import { Logger, useLogger } from '../../server/ops/log.ts'
import { eventually, ROLES, startServer, type TestServer, withServer } from '../helpers.ts'

/** A loopback server that records what reached it; `/go` answers a redirect to `location`. */
function listener(name: string, location = '') {
  const seen: { path: string; method: string; host: string | null }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: name,
    fetch(req) {
      const url = new URL(req.url)
      seen.push({ path: url.pathname, method: req.method, host: req.headers.get('host') })
      if (url.pathname === '/go') return new Response(null, { status: 302, headers: { location } })
      return Response.json({ ok: true })
    },
  })
  return { seen, port: server.port, url: `http://${name}:${server.port}`, stop: () => server.stop(true) }
}

const internal = listener('127.0.0.1')
const redirecting = listener('127.0.0.1', `${internal.url}/internal`)
afterAll(() => {
  internal.stop()
  redirecting.stop()
})
afterEach(() => void (internal.seen.length = 0))

describe('Outbound: which addresses', () => {
  const none = new Outbound([])
  it('reaches public addresses only: loopback, private, link-local, unique-local, multicast, unspecified and the like are refused', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111', '93.184.216.34']) expect(none.mayReach(address), address).toBe(true)
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::7f00:1',
      '::7f00:1',
      '::a9fe:a9fe',
      'not an address',
    ])
      expect(none.mayReach(address), address).toBe(false)
  })

  it('reaches what OUTBOUND_ALLOW names, and nothing more', () => {
    const lan = new Outbound(['192.168.1.20/32', 'fd00::/8'])
    expect(lan.mayReach('192.168.1.20')).toBe(true)
    expect(lan.mayReach('::ffff:192.168.1.20')).toBe(true)
    expect(lan.mayReach('fd00::5')).toBe(true)
    expect(lan.mayReach('192.168.1.21')).toBe(false)
    expect(lan.mayReach('127.0.0.1')).toBe(false)
  })

  it('names the problem with an address literal or localhost in a URL, however it is spelled; host names pass until called', () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://localhost:8080/',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:3000/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::127.0.0.1]/',
      'http://[::a9fe:a9fe]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://0/',
      'http://10.0.0.5/',
      'https://192.168.1.1/',
      'http://[fd00::1]/',
    ])
      expect(none.problemWith(url), url).toContain('private network')
    for (const url of ['https://script.google.com/macros/s/x/exec', 'http://publisher.lan:8080/control', 'https://8.8.8.8/'])
      expect(none.problemWith(url), url).toBeNull()
    expect(none.problemWith('ftp://example.org/')).toBe('must be an http(s) URL')
    expect(new Outbound(['127.0.0.1/32']).problemWith('http://127.0.0.1:9/')).toBeNull()
  })
})

describe('Outbound: the call', () => {
  it('refuses a name that resolves to a refused address, without connecting', async () => {
    for (const answer of ['127.0.0.1', '169.254.169.254', '10.0.0.1']) {
      const outbound = new Outbound([], async () => [answer])
      const call = outbound.fetch(`http://rebind.example:${internal.port}/x`, { method: 'POST' }, 2000)
      expect(call).rejects.toBeInstanceOf(OutboundRefused)
      await call.catch(() => {})
    }
    // One refused address among several is enough to refuse the name.
    const mixed = new Outbound(['127.0.0.1/32'], async () => ['127.0.0.1', '169.254.169.254'])
    expect(mixed.fetch(`http://mixed.example:${internal.port}/x`, {}, 2000)).rejects.toBeInstanceOf(OutboundRefused)
    expect(internal.seen).toEqual([])
  })

  it('connects to the address it checked (one lookup, so a changed DNS answer cannot move it), with the name as Host', async () => {
    const answers = ['127.0.0.1', '127.0.0.2']
    let lookups = 0
    const outbound = new Outbound(['127.0.0.1/32'], async () => [answers[lookups++]])
    const res = await outbound.fetch(`http://publisher.example:${internal.port}/hello`, { method: 'POST' }, 2000)
    expect(res.status).toBe(200)
    expect(lookups).toBe(1)
    expect(internal.seen).toEqual([{ path: '/hello', method: 'POST', host: `publisher.example:${internal.port}` }])
  })

  it('answers a redirect as it is and never follows it', async () => {
    const outbound = new Outbound(['127.0.0.1/32'])
    const res = await outbound.fetch(`${redirecting.url}/go`, { method: 'POST', body: '{}' }, 2000)
    expect(res.status).toBe(302)
    expect(internal.seen).toEqual([])
  })
})

describe('settings and ingested posts naming an address the service would call', () => {
  let s: TestServer
  let admin: { cookie: string }
  beforeAll(async () => {
    s = await startServer()
    admin = await s.as(ROLES.admin)
  })
  afterAll(() => s.stop())

  it('refuses such a literal in mirrors.spreadsheet_url and socialposts.control_url with 422, and keeps the old value', async () => {
    for (const key of ['mirrors.spreadsheet_url', 'socialposts.control_url'])
      for (const value of [
        'http://127.0.0.1:8080/internal',
        'http://localhost/',
        'http://169.254.169.254/',
        'http://[::1]/',
        'http://2130706433/',
      ]) {
        const res = await s.req('PUT', `/api/admin/settings/${key}`, { cookie: admin.cookie, json: { value } })
        expect(res.status, `${key} ${value}`).toBe(422)
        expect(res.body.detail).toContain('OUTBOUND_ALLOW')
      }
    const settings = (await s.req('GET', '/api/admin/settings', { cookie: admin.cookie })).body.settings
    expect(settings.find((x: any) => x.key === 'mirrors.spreadsheet_url').value).toBeNull()
    expect(
      (
        await s.req('PUT', '/api/admin/settings/mirrors.spreadsheet_url', {
          cookie: admin.cookie,
          json: { value: 'https://script.example.org/exec' },
        })
      ).status,
    ).toBe(200)
  })

  it('refuses such a cancel_url from a key holding only socialposts:ingest (422), storing nothing', async () => {
    const { key } = await s.mintKey(admin.cookie, ['socialposts:ingest'])
    const post = (id: string, cancel_url: string) =>
      s.req('POST', '/api/admin/socialposts/ingest', {
        key,
        json: {
          id,
          unit: 'pack',
          status: 'scheduled',
          message: 'x',
          scheduled_for: new Date(Date.now() + 86_400_000).toISOString(),
          cancel_url,
        },
      })
    for (const url of [
      `http://127.0.0.1:${internal.port}/internal`,
      'http://169.254.169.254/latest',
      'http://localhost:3000/api/admin/x',
    ]) {
      const res = await post('pack/probe', url)
      expect(res.status, url).toBe(422)
      expect(res.body.detail).toStartWith('cancel_url:')
    }
    expect(await s.db.selectFrom('social_posts').select('id').execute()).toEqual([])
    expect((await post('pack/real', 'https://publisher.example.org/cancel/pack%2Freal?sig=abc')).status).toBe(200)
  })

  it('accepts a loopback or LAN address that OUTBOUND_ALLOW names, and still refuses the others', async () => {
    await withServer({ OUTBOUND_ALLOW: '127.0.0.1/32' }, async (lan) => {
      const a = await lan.as(ROLES.admin)
      const put = (value: string) => lan.req('PUT', '/api/admin/settings/socialposts.control_url', { cookie: a.cookie, json: { value } })
      expect((await put('http://127.0.0.1:8080/control')).status).toBe(200)
      expect((await put('http://169.254.169.254/')).status).toBe(422)
    })
  })
})

describe('what leaders read when a call fails', () => {
  const lines: string[] = []
  beforeAll(() => useLogger(new Logger('text', (line) => lines.push(line))))
  afterAll(() => useLogger(null))

  it('does not follow a spreadsheet redirect (the POST never becomes a GET on loopback) and shows plain words; the log keeps the detail', async () => {
    await withServer({ OUTBOUND_ALLOW: '127.0.0.1/32' }, async (s) => {
      const admin = await s.as(ROLES.admin)
      await s.req('PUT', '/api/admin/settings/mirrors.spreadsheet_url', { cookie: admin.cookie, json: { value: `${redirecting.url}/go` } })
      await s.req('POST', '/api/join', { json: { parent_name: 'Redirected', email: 'r@example.org' } })
      const failedList = async () => (await s.req('GET', '/api/admin/mirrors/failed', { cookie: admin.cookie })).body.failed
      await eventually(async () => (await failedList()).some((f: any) => f.status === 'failed'))
      expect(internal.seen).toEqual([])
      const [failed] = await failedList()
      expect(failed.error).toBe('The spreadsheet did not accept the copy')
      expect(lines.some((l) => l.includes('mirror.copy') && l.includes('HTTP 302') && l.includes('redirects are not followed'))).toBe(true)

      // Unreachable reads as plain words too: no errno, no address.
      await s.req('PUT', '/api/admin/settings/mirrors.spreadsheet_url', {
        cookie: admin.cookie,
        json: { value: 'http://127.0.0.1:1/exec' },
      })
      const retried = await s.req('POST', '/api/admin/mirrors/retry', { cookie: admin.cookie, json: { target: 'spreadsheet' } })
      expect(retried.body.failed).toBe(1)
      const shown = JSON.stringify(await failedList())
      expect(shown).toContain('The spreadsheet could not be reached')
      expect(shown).not.toMatch(/ECONN|HTTP \d|127\.0\.0\.1|Unable to connect/)
    })
  })

  it('never calls a cancel_url that names a refused address, even one written into the database by hand (502, nothing sent)', async () => {
    await withServer({}, async (s) => {
      const leader = await s.as(ROLES.packLeader)
      const now = new Date().toISOString()
      await s.db
        .insertInto('social_posts')
        .values({
          id: 'pack/planted',
          unit: 'pack',
          status: 'scheduled',
          message: 'x',
          scheduled_for: new Date(Date.now() + 86_400_000).toISOString(),
          cancel_url: `http://127.0.0.1:${internal.port}/internal?sig=x`,
          reported_at: now,
          updated_at: now,
        } as never)
        .execute()
      const res = await s.req('POST', '/api/admin/socialposts/pack%2Fplanted/cancel', { cookie: leader.cookie })
      expect(res.status).toBe(502)
      expect(res.body.detail).toBe('The publisher did not cancel the post: it refused or could not be reached. The service log says why.')
      expect(internal.seen).toEqual([])
      expect(lines.some((l) => l.includes('publisher.call') && l.includes('private network'))).toBe(true)
    })
  })
})
