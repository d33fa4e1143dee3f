// The log: one line per request (method, path without query values or tokens, status, milliseconds, how the caller
// authenticated) and one per background event, as text or JSON lines; in-process with a captured sink, then from
// the real service's stdout.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp, SERVE_OPTIONS } from '../../server/app.ts'
import { type Db } from '../../server/db/client.ts'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { type LogFormat, Logger } from '../../server/ops/log.ts'
import { createAccount } from '../../server/people/accounts.ts'
import { ADMIN_TOKEN, eventually, PASSWORD, passwordHashOf, rawHttp } from '../helpers.ts'
import { startService } from '../service-process.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** The service in-process with its request log captured: `lines` holds what it wrote. */
async function startLogged(format: LogFormat) {
  const dir = mkdtempSync(path.join(tmpdir(), 'request-log-'))
  dirs.push(dir)
  const env = readEnv({ DATABASE_PATH: path.join(dir, 'site.db'), ADMIN_TOKEN, PORT: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:1' })
  const db = await openMigrated(env.databasePath)
  const written: string[] = []
  const log = new Logger(format, (line) => written.push(line))
  const app = await createApp({ db, env, log })
  app.listen({ ...SERVE_OPTIONS, port: 0, hostname: '127.0.0.1' })
  const url = `http://127.0.0.1:${app.server!.port}`
  /** Waits for the log line of the answer `answered` gives (written just after the answer is sent). */
  const logged = async <T>(answered: Promise<T>): Promise<T> => {
    const before = (log.drain(), written.length)
    const answer = await answered
    await eventually(async () => (log.drain(), written.length > before))
    return answer
  }
  const send = (method: string, p: string, headers: Record<string, string> = {}, body?: string) =>
    logged(
      fetch(url + p, { method, headers, body, redirect: 'manual' }).then(async (res) => {
        await res.arrayBuffer()
        return res
      }),
    )
  return {
    url,
    db: db as Db,
    /** What the log wrote, with the requests answered so far (their lines wait for a batch otherwise). */
    get lines() {
      log.drain()
      return written
    },
    send,
    /** Sends raw bytes (see rawHttp) and waits for the answer's log line. */
    raw: (request: string) => logged(rawHttp(url, request)),
    async stop() {
      await app.stop(true)
      await db.destroy()
    },
  }
}

type Logged = Awaited<ReturnType<typeof startLogged>>

/** An owner signed in (their session cookie) with a key (its secret). */
async function ownerWithKey(s: Logged) {
  const email = `owner.${process.pid}@example.org`
  const password_hash = await passwordHashOf(PASSWORD)
  await s.db.transaction().execute((trx) => createAccount(trx, { email, name: null, password_hash, global_role: 'owner', units: [] }))
  const login = await fetch(`${s.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]
  // Minting from a session needs it confirmed with the password first.
  const confirmed = await fetch(`${s.url}/api/admin/account/confirm`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  })
  if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`)
  const minted = await fetch(`${s.url}/api/admin/keys`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'log test', scopes: ['leads:read'] }),
  })
  return { cookie, key: ((await minted.json()) as { key: string }).key }
}

describe('the request log (text)', () => {
  let s: Logged
  let owner: { cookie: string; key: string }
  beforeAll(async () => {
    s = await startLogged('text')
    owner = await ownerWithKey(s)
    // The sign-in, the confirmation and the new key: their lines are written just after their answers.
    await eventually(async () => s.lines.length >= 3)
    s.lines.length = 0
  })
  afterAll(() => s.stop())

  it('writes one line per answer: time, method, path, status, milliseconds, request id and how the caller authenticated', async () => {
    await s.send('GET', '/api/admin/whoami')
    await s.send('GET', '/api/admin/whoami', { authorization: `Bearer ${owner.key}` })
    await s.send('GET', '/api/admin/whoami', { cookie: owner.cookie })
    await s.send('GET', '/api/admin/whoami', { 'x-admin-token': ADMIN_TOKEN })
    await s.send('DELETE', '/healthz', { 'x-request-id': 'client-chosen.id_1' })
    const line = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z (GET|DELETE) (\S+) (\d{3}) (\d+(\.\d+)?)ms request_id=[\w.-]+ via=(\w+)$/
    expect(
      s.lines.map((l) =>
        line
          .exec(l)
          ?.slice(1, 7)
          .filter((_, i) => i !== 3 && i !== 4),
      ),
    ).toEqual([
      ['GET', '/api/admin/whoami', '401', 'none'],
      ['GET', '/api/admin/whoami', '200', 'key'],
      ['GET', '/api/admin/whoami', '200', 'session'],
      ['GET', '/api/admin/whoami', '200', 'break_glass'],
      ['DELETE', '/healthz', '405', 'none'],
    ])
    expect(s.lines.at(-1)).toContain(' request_id=client-chosen.id_1 ')
  })

  it('logs refusals made before any route (an unreadable Host) as well', async () => {
    s.lines.length = 0
    const res = await s.raw('GET /api/admin/whoami HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n')
    expect(res.status).toBe(400)
    expect(s.lines).toHaveLength(1)
    expect(s.lines[0]).toMatch(/ GET \S+ 400 [\d.]+ms request_id=[\w-]{36} via=none$/)
  })

  it('logs a client that drops mid-body as one 400 line, with no stack and no server error', async () => {
    s.lines.length = 0
    const errors: unknown[][] = []
    const consoleError = console.error
    console.error = (...args: unknown[]) => void errors.push(args)
    try {
      const { port } = new URL(s.url)
      for (let i = 0; i < 3; i++) {
        const socket = connect(Number(port), '127.0.0.1')
        await new Promise((resolve) => socket.once('connect', resolve))
        socket.write('POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"parent_')
        await Bun.sleep(50)
        socket.destroy()
      }
      await eventually(async () => s.lines.length >= 3)
      await Bun.sleep(200)
    } finally {
      console.error = consoleError
    }
    expect(errors).toEqual([])
    expect(s.lines).toHaveLength(3)
    for (const line of s.lines) expect(line).toMatch(/ POST \/api\/join 400 [\d.]+ms request_id=[\w-]{36} via=none$/)
  })

  it('never writes a query value, a token in the path, a cookie, a key, a password or a body; query names only', async () => {
    s.lines.length = 0
    const secrets = ['cursorSECRET123', 'inviteTOKEN0123456789', 'resetTOKEN0123456789', 'setupTOKEN0123456789', 'bodyPASSWORD123']
    await s.send('GET', `/api/catalog/c6s3?limit=5&cursor=${secrets[0]}&token=${secrets[0]}`, { cookie: owner.cookie })
    await s.send('POST', `/api/invite/${secrets[1]}`, { 'content-type': 'application/json' }, JSON.stringify({ password: secrets[4] }))
    await s.send('GET', `/reset/${secrets[2]}`)
    await s.send('GET', `/setup/${secrets[3]}/`)
    await s.send('GET', '/api/admin/leads?q=smith', { authorization: `Bearer ${owner.key}` })
    // Spelled otherwise, the same pages (the site decodes the path and skips empty segments).
    for (const target of ['//invite/oddTOKEN0123456789', '/%69nvite/encodedTOKEN0123456789', '/Setup/caseTOKEN0123456789'])
      await s.raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    const log = s.lines.join('\n')
    const spelled = ['oddTOKEN0123456789', 'encodedTOKEN0123456789', 'caseTOKEN0123456789']
    for (const secret of [...secrets, ...spelled, owner.cookie.split('=')[1], owner.key, PASSWORD, 'smith'])
      expect(log).not.toContain(secret)
    expect(s.lines).toHaveLength(8)
    expect(s.lines[0]).toMatch(/ GET \/api\/catalog\/c6s3 \d{3} [\d.]+ms request_id=[\w-]{36} via=none query=limit,cursor,token$/)
    expect(s.lines[1]).toMatch(/ POST \/api\/invite\/\{token\} 4\d\d /)
    expect(s.lines[2]).toMatch(/ GET \/reset\/\{token\} /)
    expect(s.lines[3]).toMatch(/ GET \/setup\/\{token\}\/ /)
    expect(s.lines[4]).toMatch(/ GET \/api\/admin\/leads 200 [\d.]+ms request_id=[\w-]{36} via=key query=q$/)
  })
})

describe('the request log (JSON lines)', () => {
  it('writes one JSON object per answer with at, kind, method, path, status, ms, request_id, via and the query names', async () => {
    const s = await startLogged('json')
    try {
      await s.send('GET', '/api/admin/whoami?key=site_notAKey', { 'x-admin-token': ADMIN_TOKEN, 'x-request-id': 'json-line.1' })
      await s.send('GET', '/invite/abcdefTOKEN')
      expect(s.lines.map((l) => JSON.parse(l))).toEqual([
        {
          at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          kind: 'request',
          method: 'GET',
          path: '/api/admin/whoami',
          // whoami takes no parameters (422 unknown_parameter): the line names the one sent, never its value.
          status: 422,
          ms: expect.any(Number),
          request_id: 'json-line.1',
          via: 'break_glass',
          query: ['key'],
        },
        // No site build in this app: the page answers 503 (being built).
        expect.objectContaining({
          kind: 'request',
          path: '/invite/{token}',
          status: 503,
          request_id: expect.stringMatching(/^[\w-]{36}$/),
          via: 'none',
        }),
      ])
      expect(Math.abs(Date.parse(JSON.parse(s.lines[0]).at) - Date.now())).toBeLessThan(5000)
    } finally {
      await s.stop()
    }
  })
})

describe('background events', () => {
  it('are one line each: text puts the message last (control characters escaped), JSON keeps every field', () => {
    const lines: string[] = []
    const fields = { ok: false, reason: 'data changed', duration_ms: 812, message: 'Site build failed:\nline two' }
    new Logger('text', (l) => lines.push(l)).event('site.build', fields)
    new Logger('json', (l) => lines.push(l)).event('site.build', fields)
    expect(lines[0]).toMatch(/^\S+Z site\.build ok=false reason="data changed" duration_ms=812 Site build failed:\\nline two$/)
    expect(JSON.parse(lines[1])).toEqual({ at: expect.any(String), kind: 'site.build', ...fields })
  })

  it('follow the lines of the requests answered before them, which otherwise are written together soon after', async () => {
    const lines: string[] = []
    let wrote = () => {}
    const log = new Logger('text', (line) => {
      lines.push(line)
      wrote()
    })
    log.request('GET', 'http://x/a', 200, performance.now(), 'none')
    log.request('POST', 'http://x/b?q=1', 201, performance.now(), 'key', 'req-7')
    expect(lines).toEqual([])
    log.event('site.build', { ok: true })
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/ GET \/a 200 /)
    expect(lines[1]).toMatch(/ POST \/b 201 [\d.]+ms request_id=req-7 via=key query=q$/)
    expect(lines[2]).toMatch(/ site\.build ok=true$/)

    // Left alone, a request's line comes by itself, stamped with when it was answered rather than when written.
    const before = Date.now()
    log.request('GET', 'http://x/c', 304, performance.now(), 'none')
    const after = Date.now()
    await new Promise<void>((resolve) => (wrote = resolve))
    expect(lines[3]).toMatch(/ GET \/c 304 /)
    const at = Date.parse(lines[3].split(' ')[0])
    expect(at).toBeGreaterThanOrEqual(before - 1)
    expect(at).toBeLessThanOrEqual(after + 1)
  })

  it('LOG_FORMAT is text by default, json on request, and anything else is refused at start', () => {
    expect(readEnv({}).logFormat).toBe('text')
    expect(readEnv({ LOG_FORMAT: 'json' }).logFormat).toBe('json')
    expect(() => readEnv({ LOG_FORMAT: 'JSON' })).toThrow('LOG_FORMAT must be text or json, got JSON')
  })
})

describe('the running service', () => {
  let dir: string
  it('logs to stdout as text by default: its start, each request, each site build', async () => {
    // Mail set up (nothing to send) while PUBLIC_BASE_URL is http: the start says unsubscribe links need https.
    const s = await startService({ SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'pack@example.org' })
    dir = s.dir
    dirs.push(dir)
    try {
      const mark = s.output().length
      await (await fetch(`${s.url}/api/admin/whoami?token=${ADMIN_TOKEN}`)).arrayBuffer()
      const logged = await s.waitFor(/whoami.*\n/, 5000, mark)
      expect(logged).toMatch(/^\S+Z GET \/api\/admin\/whoami 401 [\d.]+ms request_id=[\w-]{36} via=none query=token\n/)
      expect(s.output()).not.toContain(ADMIN_TOKEN)
      expect(s.output()).toMatch(/^\S+Z site\.build ok=true reason="first start" duration_ms=\d+ Site built in \d+ ms\n/m)
      expect(s.output()).toMatch(/^\S+Z service\.start port=\d+ Listening on /m)
      expect(s.output()).toMatch(/^\S+Z mail\.unsubscribe_http ok=false Mail providers need an https unsubscribe link: /m)
      // One build before listening: the catalog's first load does not ask for another.
      expect(
        s
          .output()
          .split(' service.start ')[0]
          .match(/ site\.build /g),
      ).toHaveLength(1)
    } finally {
      expect(await s.stop()).toBe(0)
    }
  }, 90_000)

  it('writes nothing but JSON lines with LOG_FORMAT=json', async () => {
    const s = await startService({ LOG_FORMAT: 'json' }, dir)
    try {
      await (await fetch(`${s.url}/healthz`)).arrayBuffer()
      await s.waitFor(/"kind":"request"/, 5000)
    } finally {
      expect(await s.stop()).toBe(0)
    }
    const events = s
      .output()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(events.find((e) => e.kind === 'request')).toMatchObject({ method: 'GET', path: '/healthz', status: 200, via: 'none' })
    expect(events.find((e) => e.kind === 'service.start')).toMatchObject({ port: s.port, message: expect.stringContaining('Listening on') })
    expect(events.at(-1)).toMatchObject({ kind: 'service.stop', ok: true })
  }, 90_000)

  it('refuses to start on a port another process holds, in one line, before building the site', () => {
    const holder = Bun.serve({ port: 0, fetch: () => new Response('someone else') })
    try {
      const run = Bun.spawnSync([process.execPath, path.join(import.meta.dir, '..', '..', 'server', 'main.ts')], {
        cwd: dir,
        env: { ...process.env, DATABASE_PATH: path.join(dir, 'port-taken.db'), PORT: String(holder.port) },
      })
      expect(run.exitCode).toBe(1)
      expect(run.stderr.toString()).toBe(
        `Cannot start: port ${holder.port} is in use by another process; stop that process or choose another PORT\n`,
      )
      expect(run.stdout.toString()).not.toContain('site.build')
    } finally {
      holder.stop(true)
    }
  })

  it('refuses to start with LOG_FORMAT=xml, saying why in one line', () => {
    const run = Bun.spawnSync([process.execPath, path.join(import.meta.dir, '..', '..', 'server', 'main.ts')], {
      cwd: dir,
      env: { ...process.env, DATABASE_PATH: path.join(dir, 'site.db'), PORT: '0', LOG_FORMAT: 'xml' },
    })
    expect(run.exitCode).toBe(1)
    expect(run.stderr.toString()).toBe('Cannot start: LOG_FORMAT must be text or json, got xml\n')
    expect(run.stdout.toString()).toBe('')
  })
})
