// The service log: one line per request and one per background event, as plain text or JSON lines (LOG_FORMAT).
// A request costs a few numbers pushed on a list; its line is made with the others answered in the same 50 ms,
// after the answers are out, and written through a buffer with no system call per line.
export const LOG_FORMATS = ['text', 'json'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

/** Values an event may carry; `message` is the human sentence (last on a text line), `at` and `kind` are taken. */
export type LogFields = Record<string, string | number | boolean | null | undefined>

/** Where finished lines go (without their newline): stdout in the service, an array in tests. */
export type LogSink = (line: string) => void

/** Pages whose last segment is a one-time token (however the path is spelled); the log names the page, never the token. */
const TOKEN_PATH = /^((?:\/+api)?\/+(?:invite|reset|setup)\/+)[^/]+/i
const MAX_PATH = 300
/** A text value that needs no quotes: no space, quote, backslash, `=` or control character. */
const BARE = /^[^\s"\\=\u0000-\u001f\u007f]+$/
const CONTROL = /[\u0000-\u001f\u007f]/g
const QUERY_NAME = /^[\w.\-[\]]{1,40}$/
/** How long answered requests wait to be written as lines, together. */
const BATCH_MS = 50

const escapeControl = (c: string) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
const textValue = (v: string | number | boolean | null) => (typeof v !== 'string' ? String(v) : BARE.test(v) ? v : JSON.stringify(v))

/** An error as one short line for a log field. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000)

/** The path of a request URL with no query, and no token. */
export function loggedPath(url: string): string {
  const start = url.startsWith('http') ? url.indexOf('/', url.indexOf('//') + 2) : url.indexOf('/')
  if (start < 0) return '/'
  const q = url.indexOf('?', start)
  let path = q < 0 ? url.slice(start) : url.slice(start, q)
  if (path.length > MAX_PATH) path = path.slice(0, MAX_PATH) + '…'
  if (TOKEN_PATH.test(path)) return path.replace(TOKEN_PATH, '$1{token}')
  // The pages decode their path (`/%69nvite/…` is the invite page): so does this check.
  if (path.includes('%')) {
    let decoded = path
    try {
      decoded = decodeURIComponent(path)
    } catch {}
    if (TOKEN_PATH.test(decoded)) return decoded.replace(TOKEN_PATH, '$1{token}')
  }
  return path
}

/** The names (never the values) of a request URL's query parameters, or null when it has none. */
export function queryNames(url: string): string[] | null {
  const q = url.indexOf('?')
  if (q < 0) return null
  const names = new Set<string>()
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=')
    const name = eq < 0 ? pair : pair.slice(0, eq)
    if (name) names.add(QUERY_NAME.test(name) ? name : '?')
    if (names.size >= 10) break
  }
  return names.size ? [...names] : null
}

/**
 * What a request's line is made from: method, url, status, start and end (performance.now()), how the caller
 * authenticated, and the request id its answer carries (X-Request-Id).
 */
type RequestFields = [method: string, url: string, status: number, startedAt: number, end: number, via: string, id: string]
const FIELDS = 7

export class Logger {
  /**
   * Answered requests whose lines are not made yet, FIELDS values each (method, url, status, start, end, via, id): made
   * one at a time in a loop, a line costs a fraction of what it costs made between two answers, where the code
   * it runs is cold (about 3 µs of a 40 µs keyed request, measured in the running service).
   */
  private waiting: RequestFields[number][] = []
  private batch: Timer | null = null
  private lastSecond = -1
  private secondIso = ''
  /** Wall clock minus performance.now(), taken again every second so the clock's corrections are followed. */
  private offset = 0
  private synced = -Infinity

  constructor(
    readonly format: LogFormat,
    private readonly sink: LogSink,
  ) {}

  /**
   * The time as ISO 8601 of a performance.now() reading `at` (which a request has anyway; Date.now() costs more), now when left out,
   * its date and time part made once per second however many lines share it.
   */
  private iso(at?: number): string {
    // Synced from a reading taken now: `at` may be a request's end, read up to BATCH_MS ago.
    const now = performance.now()
    if (now - this.synced > 1000) {
      this.offset = Date.now() - now
      this.synced = now
    }
    const ms = Math.floor(this.offset + (at ?? now))
    const second = Math.floor(ms / 1000)
    if (second !== this.lastSecond) {
      this.lastSecond = second
      this.secondIso = new Date(second * 1000).toISOString().slice(0, 20)
    }
    const frac = ms - second * 1000
    return `${this.secondIso}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`
  }

  /** One background event: `kind` is dotted (`site.build`), `fields` say what happened; `message` reads as a sentence. */
  event(kind: string, fields: LogFields = {}): void {
    this.drain()
    this.sink(this.line(kind, fields))
  }

  /** The line `event` writes. */
  line(kind: string, fields: LogFields = {}): string {
    const at = this.iso()
    const { message, at: _at, kind: _kind, ...rest } = fields
    if (this.format === 'json') return JSON.stringify({ at, kind, ...rest, ...(message === undefined ? {} : { message }) })
    let line = `${at} ${kind}`
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) line += ` ${key}=${textValue(value)}`
    if (message !== undefined && message !== null) line += ` ${String(message).replace(CONTROL, escapeControl)}`
    return line
  }

  /**
   * One answered request: method, path (from the full `url`) without query values or tokens, status, milliseconds since `startedAt`
   * (a performance.now() reading), how the caller authenticated (`via`) and the request id (`id`, one of the
   * characters [A-Za-z0-9._-], so written as it is). Never another header, a cookie, token or body.
   * Its line is written within BATCH_MS, before any later event's line, or at `drain()`.
   */
  request(method: string, url: string, status: number, startedAt: number, via: string, id = '-'): void {
    this.waiting.push(method, url, status, startedAt, performance.now(), via, id)
    if (this.batch === null) {
      this.batch = setTimeout(() => this.drain(), BATCH_MS)
      this.batch.unref()
    }
  }

  /** Writes the lines of the requests answered so far: on the batch's timer, before an event's line, and before exit. */
  drain(): void {
    if (this.batch !== null) clearTimeout(this.batch)
    this.batch = null
    const w = this.waiting
    if (!w.length) return
    this.waiting = []
    for (let i = 0; i < w.length; i += FIELDS)
      this.sink(
        this.requestLine(
          w[i] as string,
          w[i + 1] as string,
          w[i + 2] as number,
          w[i + 3] as number,
          w[i + 4] as number,
          w[i + 5] as string,
          w[i + 6] as string,
        ),
      )
  }

  private requestLine(method: string, url: string, status: number, startedAt: number, end: number, via: string, id: string): string {
    const ms = Math.round((end - startedAt) * 100) / 100
    const { path, query } = this.target(url)
    if (this.format === 'json')
      return `{"at":"${this.iso(end)}","kind":"request","method":${JSON.stringify(method)},"path":${path},"status":${status},"ms":${ms},"request_id":"${id}","via":"${via}"${query}}`
    return `${this.iso(end)} ${method} ${path} ${status} ${ms}ms request_id=${id} via=${via}${query}`
  }

  /** How a request URL is shown in this log's format: path and query names, worked out once per URL (clients repeat theirs). */
  private readonly targets = new Map<string, { path: string; query: string }>()
  private target(url: string): { path: string; query: string } {
    let shown = this.targets.get(url)
    if (shown === undefined) {
      const path = loggedPath(url)
      const query = url.includes('?') ? queryNames(url) : null
      shown =
        this.format === 'json'
          ? { path: JSON.stringify(path), query: query ? `,"query":${JSON.stringify(query)}` : '' }
          : { path: BARE.test(path) ? path : JSON.stringify(path), query: query ? ` query=${query.join(',')}` : '' }
      // A one-time token's page is not kept, so its token is held no longer than its request is.
      if (!path.includes('{token}')) {
        if (this.targets.size >= 1000) this.targets.clear()
        this.targets.set(url, shown)
      }
    }
    return shown
  }
}

let current: Logger | null = null

/** Makes `logger` the one `logEvent` writes to (main.ts does, at start); null silences events (the default, as in tests). */
export function useLogger(logger: Logger | null): void {
  current = logger
}

/**
 * Logs one background event (a site build, a mirror copy, a calendar poll, a backup) through the service's
 * logger: `logEvent('backup.run', { ok: true, file: 'site-2026-11-23.db', message: 'Backed up in 120 ms' })`.
 */
export function logEvent(kind: string, fields: LogFields = {}): void {
  current?.event(kind, fields)
}
