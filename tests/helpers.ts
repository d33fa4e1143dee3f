// Test helpers: a real server on a loopback port over a real SQLite file, people fixtures, request helpers.
import { expect } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp, SERVE_OPTIONS } from '../server/app.ts'
import { contract } from './contract.ts'
import { INDEXED_PAGES } from '../site/src/lib/public-pages.ts'
import type { Capability } from '../server/auth/capabilities.ts'
import { type Db } from '../server/db/client.ts'
import { openMigrated } from '../server/backups/migrate.ts'
import { readEnv } from '../server/env.ts'
import type { Logger } from '../server/ops/log.ts'
import { SiteBuilder } from '../server/site/builder.ts'
import { CatalogLoader } from '../server/catalog/loader.ts'
import { createAccount } from '../server/people/accounts.ts'
import { MailSender } from '../server/mail/sender.ts'
import { DigestSchedule } from '../server/messages/digest-schedule.ts'
import { ReminderSchedule } from '../server/calendar/reminders.ts'
import { smtpRelay } from '../server/mail/relay.ts'
import { startPush } from '../server/push/sender.ts'
import type { UnitGrant } from '../server/people/grants.ts'
import { copyTemplate } from './template-db.ts'

export const ADMIN_TOKEN = 'break-glass-test-token-0123456789'
export const PASSWORD = 'correct horse battery'

const hashes = new Map<string, Promise<string>>()
/**
 * A password's hash for fixture accounts, made once per test process: argon2id at a test setting (1 MiB, 1 pass). Each
 * hash carries its own settings, so every sign-in still verifies it in full through the service's code, in about a
 * millisecond where the service's own setting takes 30 ms of CPU (a run signs in about a thousand times). What the
 * service hashes itself (set-up, invitations, resets, password changes) gets its own setting, as Django advises its
 * tests to do.
 */
export function passwordHashOf(password: string): Promise<string> {
  let hash = hashes.get(password)
  if (!hash) hashes.set(password, (hash = Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 })))
  return hash
}

export interface TestServer {
  url: string
  db: Db
  dir: string
  /** How many times a write asked for a site rebuild. */
  rebuilds: { count: number }
  /** The real site builder, when started with `{site: true}`. */
  site?: SiteBuilder
  /** The catalog loader, when started with `{catalogDir}`. */
  catalog?: CatalogLoader
  stop(): Promise<void>
  /** Starts the weekly digest's schedule (with SMTP_URL only). */
  startDigest(): void
  /** Starts the event reminders' schedule (with SMTP_URL only). */
  startReminders(): void
  req(method: string, path: string, options?: RequestOptions): Promise<TestResponse>
  /** A person with the given roles; `units` are slugs with a role. */
  person(spec: PersonSpec): Promise<{ id: number; email: string; password: string }>
  /** Signs in through POST /login and returns the cookie header value. */
  signIn(email: string, password?: string): Promise<string>
  /** A person signed in: their id, email and session cookie. */
  as(spec: PersonSpec): Promise<{ id: number; email: string; cookie: string }>
  /** One person signed in for each of ROLES. */
  asEveryRole(): Promise<Record<keyof typeof ROLES, { id: number; email: string; cookie: string }>>
  /** Confirms it is the session's person (POST /api/admin/account/confirm with the password), as adding factors and minting keys need. */
  confirm(cookie: string, password?: string): Promise<void>
  mintKey(cookie: string, scopes: Capability[], extra?: Record<string, unknown>): Promise<{ id: number; key: string }>
  /** The newest action-log entry of a kind. */
  lastLog(kind: string): Promise<{ id: number; at: string; kind: string; actor: string; summary: string }>
}

export interface PersonSpec {
  email?: string
  global_role?: 'owner' | 'admin' | null
  units?: { slug: 'pack' | 'troop'; role: 'member' | 'leader'; title?: string }[]
  password?: string
}

export interface RequestOptions {
  json?: unknown
  form?: Record<string, string>
  body?: string | FormData
  cookie?: string
  key?: string
  token?: string
  headers?: Record<string, string>
}

export interface TestResponse {
  status: number
  headers: Headers
  body: any
  text: string
}

let counter = 0
export const uniqueEmail = (label = 'person') => `${label}.${process.pid}.${++counter}@example.org`

/** A TCP port nothing listens on now (for a server that must know its address before it starts). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

/**
 * A server over a real SQLite file on a loopback port (PORT in `vars`, else any free one). `localhost`: its address is
 * http://localhost:PORT, which browsers need for passkeys (they refuse an IP address as the relying party).
 */
export async function startServer(
  vars: Record<string, string> = {},
  options: {
    site?: boolean
    catalogDir?: string
    log?: Logger
    localhost?: boolean
    mailRetryMs?: number
    /** The bytes of a database file to start on (a past one, which the start upgrades) instead of a migrated copy. */
    database?: Uint8Array
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-test-'))
  const env = readEnv({
    DATABASE_PATH: path.join(dir, 'site.db'),
    ADMIN_TOKEN,
    PORT: '0',
    PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    // The test line sets 0: its builds then share the cores evenly with the other workers' tests.
    SITE_BUILD_NICENESS: process.env.SITE_BUILD_NICENESS,
    ...vars,
  })
  if (options.database) writeFileSync(env.databasePath, options.database)
  // A test may start a server on a database it keeps (DATABASE_PATH in `vars`): only a new file is the template's copy.
  else if (env.databasePath !== ':memory:' && !existsSync(env.databasePath)) await copyTemplate(env.databasePath)
  const db = await openMigrated(env.databasePath)
  const rebuilds = { count: 0 }
  const site = options.site ? new SiteBuilder(db, env, { debounceMs: 100 }) : undefined
  const catalog = options.catalogDir
    ? new CatalogLoader(db, options.catalogDir, () => {
        rebuilds.count++
        site?.request()
      })
    : undefined
  await catalog?.loadAll()
  catalog?.watch()
  // With SMTP_URL (a loopback relay from tests/mail.ts), the real sender delivers the outbox.
  const mail = env.mail && new MailSender(db, smtpRelay(env.mail), { firstRetryMs: options.mailRetryMs })
  await mail?.start()
  const push = mail && (await startPush(db, env, mail, { firstRetryMs: options.mailRetryMs }))
  // The weekly digest only when a test starts it (after its fixtures): at its default hour it would mail into every
  // other mail test.
  const digest = mail ? new DigestSchedule(db, mail, env.publicBaseUrl) : null
  const reminders = mail ? new ReminderSchedule(db, mail, env.publicBaseUrl) : null
  const app = await createApp({ db, env, site, catalog, log: options.log, mail, onPublicDataChange: () => rebuilds.count++ })
  app.listen({ ...SERVE_OPTIONS, port: env.port, hostname: '127.0.0.1' })
  const url = `http://${options.localhost ? 'localhost' : '127.0.0.1'}:${app.server!.port}`

  const req = async (method: string, p: string, o: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...o.headers }
    let body: string | FormData | undefined = o.body
    if (o.json !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = JSON.stringify(o.json)
    }
    if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(o.form).toString()
    }
    if (o.cookie) headers.cookie = o.cookie
    if (o.key) headers.authorization = `Bearer ${o.key}`
    if (o.token) headers['x-admin-token'] = o.token
    const res = await fetch(url + p, { method, headers, body, redirect: 'manual' })
    const text = await res.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    // Every answer keeps the API contract: a declared status, and a body that fits its declared schema.
    // The path as sent: fetch resolves dot segments (`/x/..` is `/`) before it sends anything.
    const sent = new URL(p, url).pathname
    const broken = method === 'HEAD' ? null : (await contract()).check(method, sent, res.status, res.headers.get('content-type'), parsed)
    if (broken) throw new Error(`Contract broken: ${broken}`)
    return { status: res.status, headers: res.headers, body: parsed, text }
  }

  const person: TestServer['person'] = async (spec) => {
    const email = spec.email ?? uniqueEmail(spec.global_role ?? spec.units?.[0]?.role ?? 'person')
    const password = spec.password ?? PASSWORD
    const units: UnitGrant[] = []
    for (const u of spec.units ?? []) {
      const unit = await db.selectFrom('units').select('id').where('slug', '=', u.slug).executeTakeFirstOrThrow()
      units.push({ unit_id: unit.id, role: u.role, title: u.title ?? null })
    }
    const password_hash = await passwordHashOf(password)
    const id = await db
      .transaction()
      .execute((trx) => createAccount(trx, { email, name: null, password_hash, global_role: spec.global_role ?? null, units }))
    return { id, email, password }
  }

  const confirm = async (cookie: string, password = PASSWORD) => {
    const res = await req('POST', '/api/admin/account/confirm', { cookie, json: { password } })
    if (res.status !== 200) throw new Error(`confirm failed: ${res.status} ${res.text}`)
  }
  const signIn = async (email: string, password = PASSWORD) => {
    const res = await req('POST', '/login', { json: { email, password } })
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`)
    return res.headers.get('set-cookie')!.split(';')[0]
  }

  const as: TestServer['as'] = async (spec) => {
    const p = await person(spec)
    return { id: p.id, email: p.email, cookie: await signIn(p.email, p.password) }
  }

  return {
    url,
    db,
    dir,
    rebuilds,
    req,
    person,
    signIn,
    as,
    async asEveryRole() {
      const entries = []
      for (const [name, role] of Object.entries(ROLES)) entries.push([name, await as(role)])
      return Object.fromEntries(entries)
    },
    confirm,
    async mintKey(cookie, scopes, extra = {}) {
      await confirm(cookie)
      const res = await req('POST', '/api/admin/keys', { cookie, json: { label: 'test key', scopes, ...extra } })
      if (res.status !== 201) throw new Error(`mint failed: ${res.status} ${res.text}`)
      return { id: res.body.id, key: res.body.key }
    },
    lastLog: (kind) => db.selectFrom('action_log').selectAll().where('kind', '=', kind).orderBy('id', 'desc').executeTakeFirstOrThrow(),
    site,
    catalog,
    startDigest() {
      if (!digest) throw new Error('the digest needs SMTP_URL')
      digest.start()
    },
    startReminders() {
      if (!reminders) throw new Error('reminders need SMTP_URL')
      reminders.start()
    },
    async stop() {
      catalog?.stop()
      await site?.stop()
      await digest?.stop()
      await reminders?.stop()
      await mail?.stop()
      await push?.stop()
      await app.stop(true)
      await db.destroy()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Runs `test` against a server of its own (for rules that count per server: slow-downs, the last owner), then stops it. */
export async function withServer<T>(vars: Record<string, string>, test: (s: TestServer) => Promise<T>): Promise<T> {
  const s = await startServer(vars)
  try {
    return await test(s)
  } finally {
    await s.stop()
  }
}

/** A test server with the real site builder whose first build has finished (it throws when the build fails). */
export async function startServerWithSite(
  vars: Record<string, string> = {},
  options: { catalogDir?: string; localhost?: boolean } = {},
): Promise<TestServer> {
  const s = await startServer(vars, { ...options, site: true })
  const build = await s.site!.build('test start')
  if (!build.ok) throw new Error(`the site build failed: ${build.error}`)
  return s
}

/** The roles every route table is checked against. */
export const ROLES = {
  member: { units: [{ slug: 'pack', role: 'member' }] },
  packLeader: { units: [{ slug: 'pack', role: 'leader' }] },
  troopLeader: { units: [{ slug: 'troop', role: 'leader' }] },
  admin: { global_role: 'admin' },
  owner: { global_role: 'owner' },
} as const satisfies Record<string, PersonSpec>

/** Polls until `check` holds; throws after `ms`. Returns how long it took. */
export async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not true within ${ms} ms`)
    await Bun.sleep(50)
  }
  return Date.now() - start
}

/**
 * Sends raw bytes to a test server (for what fetch will not send: a forged Host, a hand-made chunked body)
 * and returns the status and body. The server may answer and close before the whole request is written.
 */
export function rawHttp(url: string, request: string): Promise<{ status: number; body: string; raw: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request))
    let raw = ''
    socket.on('data', (d) => (raw += d))
    socket.on('close', () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]), body: raw.slice(raw.indexOf('\r\n\r\n') + 4), raw }),
    )
    socket.on('error', () => {})
  })
}

/** A refusal: the status, and a `{detail}` in words with no stack in it. */
export function expectDetail(res: { status: number; body: any; text: string }, status: number) {
  expect(res.status).toBe(status)
  expect(typeof res.body.detail).toBe('string')
  expect(res.text).not.toMatch(/at .*\.ts:\d+/)
}

/** The public pages the site checks walk (meta tags, Lighthouse, axe): the indexed ones, and the others a visitor may land on. */
export const PUBLIC_PAGES = [
  ...INDEXED_PAGES,
  '/join/thanks/',
  '/login/',
  '/login/forgot/',
  '/login/forgot/sent/',
  '/login/forgot/wait/',
  '/login/second-factor/',
]

/** RFC 5545 §3.1: every physical line of an iCalendar text is at most 75 octets and whole UTF-8 on its own. */
export function expectFoldedWithin75Octets(ics: Uint8Array) {
  const strict = new TextDecoder('utf-8', { fatal: true })
  let start = 0
  for (let i = 0; i <= ics.length; i++) {
    if (i < ics.length && !(ics[i] === 13 && ics[i + 1] === 10)) continue
    const line = ics.subarray(start, i)
    if (line.length > 75) throw new Error(`a line of ${line.length} octets: ${strict.decode(line)}`)
    strict.decode(line) // throws when a fold split a character
    start = i + 2
  }
}
