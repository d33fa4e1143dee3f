// Catalog answers for the bot, every one compressed in the coding the client prefers (RFC 9110): a strong ETag per
// representation, 304 by weak comparison, `Vary: Accept-Encoding`. Answers named by a key are serialised once per
// catalog version; answers named by their content (pages, search, changes) keep their compressed forms by a hash of
// their bytes. Both share one cache, bounded in bytes, the least recently used answer leaving first.
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { noneMatch } from '../http/versions.ts'

export type Coding = 'identity' | 'br' | 'zstd' | 'gzip'
type Compressed = Exclude<Coding, 'identity'>
type Bytes = Uint8Array<ArrayBuffer>

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)
const brotliParams = (body: Uint8Array) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
})
/**
 * The codings this server produces, in its own order of preference when a client weighs them equally. Each runs
 * once per cached answer: right away for a small answer (well under a millisecond), off the event loop for a large
 * one. Brotli runs at quality 5: its default (11) takes about a minute for a 24 MB season where 5 takes about 0.1 s
 * and is at most about twice the size.
 */
const COMPRESS: Record<Compressed, { now: (body: Bytes) => Bytes; later: (body: Bytes) => Promise<Bytes> }> = {
  br: {
    now: (body) => zlib.brotliCompressSync(body, brotliParams(body)) as Bytes,
    later: (body) => brotli(body, brotliParams(body)) as Promise<Bytes>,
  },
  zstd: {
    now: (body) => Bun.zstdCompressSync(body, { level: 6 }) as Bytes,
    later: (body) => Bun.zstdCompress(body, { level: 6 }) as Promise<Bytes>,
  },
  gzip: { now: (body) => Bun.gzipSync(body) as Bytes, later: (body) => gzip(body) as Promise<Bytes> },
}
/** Answers up to this size are compressed on the spot: handing them to another thread costs more than it saves. */
const COMPRESS_NOW = 64 * 1024
const PREFERENCE: readonly Compressed[] = typeof Bun.zstdCompress === 'function' ? ['br', 'zstd', 'gzip'] : ['br', 'gzip']
/** A strong ETag names one representation, so each coding has its own (the gzip one keeps its earlier suffix). */
const SUFFIX: Record<Coding, string> = { identity: '', br: '-br', zstd: '-zstd', gzip: '-gz' }
/** The headers a 200 and a 304 share (RFC 9110 §15.4.5): every answer varies with Accept-Encoding. */
const CACHE_CONTROL = 'no-cache'
const VARY = 'Accept-Encoding'

interface Entry {
  key: string
  version: number
  etags: Record<Coding, string>
  /** The JSON; null for an answer named by its content, whose JSON each request brings again (`contentJson`). */
  body: Bytes | null
  /** Compressed on the first request that wants the coding; a promise while that runs. */
  encoded: Partial<Record<Compressed, Bytes | Promise<Bytes>>>
  /** The 304's headers per coding, made once: a 304 is the answer the bot gets most. */
  notModified: Partial<Record<Coding, Record<string, string>>>
  bytes: number
  /** When it was last answered from (see `touch`). */
  used: number
}

const cache = new Map<string, Entry>()
const building = new Map<string, Promise<Entry>>()
const MAX_ENTRIES = 1000
/**
 * 32 MB: the service has to stay under 400 MB resident at 100,000 variants on a 1 GB box. That holds a few thousand
 * compressed pages of 1,000 variants (a full sync is about 2 MB of them) or a whole season of 50,000 variants (17 MB)
 * with its compressed forms; a bigger answer is compressed per request and only its tags are kept.
 */
const MAX_BYTES = 32 * 2 ** 20
let maxBytes = MAX_BYTES
/** The share of the bound one answer may take uncompressed, leaving room for its compressed forms (about a tenth). */
const KEEP_AT_MOST = 0.75
let cachedBytes = 0
/** Answers too big to keep: their tags, so a 304 still costs no build. */
const tagsOnly = new Map<string, { version: number; etags: Record<Coding, string> }>()
const encoder = new TextEncoder()

/**
 * Answers from the cache for `key` at the catalog's current version (`versionNow` reads it), building the JSON body
 * once when it is missing or stale.
 */
export function cachedJson(
  request: Request,
  key: string,
  versionNow: () => number,
  build: () => Promise<unknown>,
): Response | Promise<Response> {
  return cachedBody(request, key, versionNow, async () => encoder.encode(JSON.stringify(await build())))
}

/** As `cachedJson`, for a builder that serialises its JSON itself. */
export function cachedBody(
  request: Request,
  key: string,
  versionNow: () => number,
  build: (version: number) => Promise<Bytes>,
): Response | Promise<Response> {
  const version = versionNow()
  const entry = cache.get(key)
  if (entry !== undefined && entry.version === version) return answer(request, touch(entry))
  const tags = tagsOnly.get(key)
  if (tags !== undefined && tags.version === version) {
    const done = notModified(request, negotiate(request.headers.get('accept-encoding')), tags.etags)
    if (done) return done
  }
  return entryFor(key, version, build).then((fresh) => answer(request, fresh))
}

/**
 * A JSON answer named by its content rather than a key (a page, a search, changes): its tags are a hash of its bytes,
 * and its compressed forms are cached under that hash, so a repeated answer is compressed once. Its JSON is not kept:
 * the request has just made it. `headers` go on the 200 and the 304 alike (a page's `Link`).
 */
export function contentJson(request: Request, body: object, headers: Record<string, string> = {}): Response | Promise<Response> {
  // Kept as a string: an identity answer is sent from it, and only a coding not cached yet needs its bytes.
  const json = JSON.stringify(body)
  collectSoon(json.length)
  const tag = tagOf(json)
  const key = `#${tag}`
  const entry = cache.get(key)
  return answer(request, entry === undefined ? store(key, 0, null, tag) : touch(entry), headers, json)
}

/**
 * Answers named by their content are garbage as soon as they are sent: a bot's full sync makes 110 pages of 351 KB,
 * their rows read from SQLite and their JSON. The collector weighs a string by its cell, not its characters, so it let
 * 60–110 MB of them pile up before collecting, taking the service past 400 MB at 100,000 variants. Each 4 MB of such
 * answers made asks for a collection without waiting for it (a sync's pages take about 5% longer; BENCHMARKS.md).
 */
const COLLECT_EVERY = 4 * 2 ** 20
let madeSinceCollect = 0
function collectSoon(bytes: number) {
  madeSinceCollect += bytes
  if (madeSinceCollect < COLLECT_EVERY) return
  madeSinceCollect = 0
  Bun.gc(false)
}

/**
 * A hit marks when the answer was last used, so the least recently used leaves first. A number written per hit: a 304
 * is the answer the bot gets most, and moving the key to the end of the Map cost about 6% of one (bench/pipeline.ts).
 */
let uses = 0
function touch(entry: Entry): Entry {
  entry.used = ++uses
  return entry
}

/** What the cache holds now, and a bound for tests (without one, the default comes back). */
export const catalogCache = {
  use: () => ({ entries: cache.size, bytes: cachedBytes }),
  /** Whether the answer with this identity tag is cached (a content-named one by its hash). */
  holds: (etag: string) => cache.has(`#${etag.slice(1, -1)}`),
  bound(bytes?: number) {
    maxBytes = bytes ?? MAX_BYTES
    evictFor(0)
  },
}

function entryFor(key: string, version: number, build: (version: number) => Promise<Bytes>): Promise<Entry> {
  // Requests that miss at the same time share one build instead of serialising the season once each.
  const slot = `${version} ${key}`
  let pending = building.get(slot)
  if (!pending) {
    pending = build(version)
      .then((body) => store(key, version, body))
      .finally(() => building.delete(slot))
    building.set(slot, pending)
  }
  return pending
}

/** The hash of an answer's bytes (a string is hashed as its UTF-8 bytes). */
const tagOf = (body: Bytes | string) => new Bun.CryptoHasher('sha256').update(body).digest('base64url').slice(0, 32)

/** Caches an answer: its JSON bytes, or for one named by its content (`body` null) only its tags and codings. */
function store(key: string, version: number, body: Bytes | null, tag = tagOf(body!)): Entry {
  const etags = {} as Record<Coding, string>
  for (const [coding, suffix] of Object.entries(SUFFIX) as [Coding, string][]) etags[coding] = `"${tag}${suffix}"`
  const entry: Entry = { key, version, etags, body, encoded: {}, notModified: {}, bytes: body?.length ?? 0, used: ++uses }
  const old = cache.get(key)
  // A request that read the catalog version just before a reload never replaces the newer answer.
  if (old && old.version > version) return entry
  if (old) forget(key, old)
  // An answer that could not stay is answered from this entry alone, which leaves with the request.
  if (entry.bytes > KEEP_AT_MOST * maxBytes) {
    if (tagsOnly.size >= MAX_ENTRIES) tagsOnly.clear()
    tagsOnly.set(key, { version, etags })
    return entry
  }
  tagsOnly.delete(key)
  evictFor(entry.bytes)
  cache.set(key, entry)
  cachedBytes += entry.bytes
  return entry
}

/**
 * Least recently used first until `bytes` more fit, and a tenth of the bound besides, so a run of new answers (a bot's
 * sync through pages) sorts the cache once every few stores rather than at each.
 */
function evictFor(bytes: number) {
  const full = () => cache.size >= MAX_ENTRIES || cachedBytes + bytes > maxBytes
  if (!cache.size || !full()) return
  const room = (maxBytes * 9) / 10 - bytes
  const oldestFirst = [...cache.values()].sort((a, b) => a.used - b.used)
  for (const entry of oldestFirst) {
    if (!(cache.size >= MAX_ENTRIES * 0.9 || cachedBytes > room)) break
    forget(entry.key, entry)
  }
}

function forget(key: string, entry: Entry) {
  cache.delete(key)
  cachedBytes -= entry.bytes
}

/** The answer for one request: a 304 when If-None-Match names this representation, else its bytes. */
function answer(request: Request, entry: Entry, extra?: Record<string, string>, fresh?: string): Response | Promise<Response> {
  const coding = negotiate(request.headers.get('accept-encoding'))
  const done = notModified(request, coding, entry.etags, extra, entry)
  if (done) return done
  const etag = entry.etags[coding]
  const body = (entry.body ?? fresh)!
  if (coding === 'identity') return ok(body, etag, null, extra)
  const encoded = (entry.encoded[coding] ??= compress(entry, coding, typeof body === 'string' ? bytesOf(body) : body))
  return encoded instanceof Uint8Array ? ok(encoded, etag, coding, extra) : encoded.then((bytes) => ok(bytes, etag, coding, extra))
}

/** An answer's bytes made from its JSON to be compressed: more garbage of the same kind. */
function bytesOf(json: string): Bytes {
  collectSoon(json.length)
  return encoder.encode(json)
}

/** The 304 when If-None-Match names the representation this request would get; its headers made once per coding. */
function notModified(request: Request, coding: Coding, etags: Record<Coding, string>, extra?: Record<string, string>, entry?: Entry) {
  const match = request.headers.get('if-none-match')
  if (match === null) return null
  const etag = etags[coding]
  if (!noneMatch(match, etag)) return null
  const headers = extra && Object.keys(extra).length ? { etag, vary: VARY, 'cache-control': CACHE_CONTROL, ...extra } : null
  const shared = entry ? (entry.notModified[coding] ??= { etag, vary: VARY, 'cache-control': CACHE_CONTROL }) : null
  return new Response(null, { status: 304, headers: headers ?? shared ?? { etag, vary: VARY, 'cache-control': CACHE_CONTROL } })
}

const ok = (body: Bytes | string, etag: string, coding: Compressed | null, extra?: Record<string, string>) =>
  new Response(body, {
    headers: {
      'content-type': 'application/json',
      etag,
      vary: VARY,
      'cache-control': CACHE_CONTROL,
      ...(coding ? { 'content-encoding': coding } : {}),
      ...extra,
    },
  })

function compress(entry: Entry, coding: Compressed, body: Bytes): Bytes | Promise<Bytes> {
  const done = (bytes: Bytes) => {
    entry.encoded[coding] = bytes
    entry.bytes += bytes.length
    if (cache.get(entry.key) === entry) {
      cachedBytes += bytes.length
      evictFor(0)
    }
    return bytes
  }
  if (body.length <= COMPRESS_NOW) return done(COMPRESS[coding].now(body))
  const pending = COMPRESS[coding].later(body).then(done)
  // A failed compression is tried again by the next request rather than remembered.
  pending.catch(() => {
    if (entry.encoded[coding] === pending) delete entry.encoded[coding]
  })
  return pending
}

const negotiated = new Map<string, Coding>()

/**
 * The coding to answer with for an Accept-Encoding value (RFC 9110 §12.5.3): the acceptable coding with the highest
 * weight, ties going to br, then zstd, then gzip. Without the field the client states no preference, and identity is
 * what every client reads. Identity wins only when named with a higher weight than every coding; when the client refuses
 * identity and accepts nothing we produce, the header is disregarded and identity sent anyway (§12.1 allows that
 * instead of a 406), since an answer the bot can still read beats none.
 */
export function negotiate(value: string | null): Coding {
  if (value === null) return 'identity'
  let coding = negotiated.get(value)
  if (coding === undefined) {
    coding = weigh(value)
    // Clients send one of a handful of values; a flood of odd ones only costs re-parsing.
    if (negotiated.size >= 256) negotiated.clear()
    negotiated.set(value, coding)
  }
  return coding
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

function weigh(value: string): Coding {
  const weights = new Map<string, number>()
  for (const element of value.split(',')) {
    const [name, ...params] = element.split(';')
    let coding = name.trim().toLowerCase()
    if (!coding) continue
    if (coding === 'x-gzip') coding = 'gzip'
    let q = 1
    for (const param of params) {
      const [k, v = ''] = param.split('=')
      if (k.trim().toLowerCase() !== 'q') continue
      // A weight that is not a qvalue makes the element unreadable: it is ignored rather than guessed at.
      q = QVALUE.test(v.trim()) ? Number(v.trim()) : NaN
    }
    if (!Number.isNaN(q) && !weights.has(coding)) weights.set(coding, q)
  }
  const any = weights.get('*')
  let best: Compressed | null = null
  let bestWeight = 0
  for (const coding of PREFERENCE) {
    const weight = weights.get(coding) ?? any ?? 0
    if (weight > bestWeight) [best, bestWeight] = [coding, weight]
  }
  const identity = weights.get('identity')
  if (best && !(identity !== undefined && identity > bestWeight)) return best
  return 'identity'
}
