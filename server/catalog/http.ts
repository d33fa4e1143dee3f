// Cached catalog answers for the bot: serialised once per catalog version, with a strong ETag, 304 and gzip.
const encoder = new TextEncoder()

interface Entry {
  version: number
  etag: string
  body: Uint8Array<ArrayBuffer>
  gzip: Uint8Array<ArrayBuffer>
}

const cache = new Map<string, Entry>()
const MAX_ENTRIES = 500

/** Answers from the cache for `key` at `version`, building the JSON body once when it is missing or stale. */
export async function cachedJson(request: Request, key: string, version: number, build: () => Promise<unknown>): Promise<Response> {
  let entry = cache.get(key)
  if (!entry || entry.version !== version) {
    const body = encoder.encode(JSON.stringify(await build()))
    const hash = new Bun.CryptoHasher('sha256').update(body).digest('base64url').slice(0, 32)
    entry = { version, etag: `"${hash}"`, body, gzip: Bun.gzipSync(body) }
    if (cache.size >= MAX_ENTRIES) cache.clear()
    cache.set(key, entry)
  }
  const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
  // A strong ETag names one representation, so the gzipped one has its own.
  const etag = gzip ? `${entry.etag.slice(0, -1)}-gz"` : entry.etag
  const headers: Record<string, string> = { etag, vary: 'Accept-Encoding', 'cache-control': 'no-cache' }
  const match = request.headers.get('if-none-match')
  if (match && (match.trim() === '*' || match.split(',').some((t) => [entry.etag, `${entry.etag.slice(0, -1)}-gz"`].includes(t.trim()))))
    return new Response(null, { status: 304, headers })
  headers['content-type'] = 'application/json'
  if (gzip) headers['content-encoding'] = 'gzip'
  return new Response(gzip ? entry.gzip : entry.body, { headers })
}
