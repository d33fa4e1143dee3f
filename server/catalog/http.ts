// Cached catalog answers for the bot: serialised once per catalog version, each content coding compressed on first
// use; a strong ETag per representation, 304 by weak comparison, and the coding the client prefers (RFC 9110).
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
  body: Bytes
  /** Compressed on the first request that wants the coding; a promise while that runs. */
  encoded: Partial<Record<Compressed, Bytes | Promise<Bytes>>>
  /** The 304's headers per coding, made once: a 304 is the answer the bot gets most. */
  notModified: Partial<Record<Coding, Record<string, string>>>
  bytes: number
}

const cache = new Map<string, Entry>()
const building = new Map<string, Promise<Entry>>()
const MAX_ENTRIES = 1000
const MAX_BYTES = 256 * 2 ** 20
let cachedBytes = 0
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
  const entry = cache.get(key)
  if (entry !== undefined && entry.version === versionNow()) return answer(request, entry)
  return entryFor(key, versionNow(), build).then((fresh) => answer(request, fresh))
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

function store(key: string, version: number, body: Bytes): Entry {
  const tag = new Bun.CryptoHasher('sha256').update(body).digest('base64url').slice(0, 32)
  const etags = {} as Record<Coding, string>
  for (const [coding, suffix] of Object.entries(SUFFIX) as [Coding, string][]) etags[coding] = `"${tag}${suffix}"`
  const entry: Entry = { key, version, etags, body, encoded: {}, notModified: {}, bytes: body.length }
  const old = cache.get(key)
  // A request that read the catalog version just before a reload never replaces the newer answer.
  if (old && old.version > version) return entry
  if (old) forget(key, old)
  // Oldest first: a key written again moves to the end.
  while (cache.size && (cache.size >= MAX_ENTRIES || cachedBytes + entry.bytes > MAX_BYTES)) {
    const [oldestKey, oldest] = cache.entries().next().value!
    forget(oldestKey, oldest)
  }
  cache.set(key, entry)
  cachedBytes += entry.bytes
  return entry
}

function forget(key: string, entry: Entry) {
  cache.delete(key)
  cachedBytes -= entry.bytes
}

/** The answer for one request: a 304 when If-None-Match names this representation, else its bytes. */
function answer(request: Request, entry: Entry): Response | Promise<Response> {
  const coding = negotiate(request.headers.get('accept-encoding'))
  const etag = entry.etags[coding]
  const match = request.headers.get('if-none-match')
  if (match !== null && noneMatch(match, etag))
    return new Response(null, {
      status: 304,
      headers: (entry.notModified[coding] ??= { etag, vary: VARY, 'cache-control': CACHE_CONTROL }),
    })
  if (coding === 'identity') return ok(entry.body, etag, null)
  const encoded = (entry.encoded[coding] ??= compress(entry, coding))
  return encoded instanceof Uint8Array ? ok(encoded, etag, coding) : encoded.then((bytes) => ok(bytes, etag, coding))
}

const ok = (body: Bytes, etag: string, coding: Compressed | null) =>
  new Response(body, {
    headers: {
      'content-type': 'application/json',
      etag,
      vary: VARY,
      'cache-control': CACHE_CONTROL,
      ...(coding ? { 'content-encoding': coding } : {}),
    },
  })

function compress(entry: Entry, coding: Compressed): Bytes | Promise<Bytes> {
  const done = (bytes: Bytes) => {
    entry.encoded[coding] = bytes
    entry.bytes += bytes.length
    if (cache.get(entry.key) === entry) cachedBytes += bytes.length
    return bytes
  }
  if (entry.body.length <= COMPRESS_NOW) return done(COMPRESS[coding].now(entry.body))
  const pending = COMPRESS[coding].later(entry.body).then(done)
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
