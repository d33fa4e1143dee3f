// Serves the current site build: cache headers by kind of file, the 404 page, token pages, no traversal,
// validators and 304s for the calendar feeds, and a small "being built" page (503) while there is no complete build.
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { HttpError, notFound } from '../errors.ts'
import { noneMatch } from '../http/versions.ts'

/** Pages whose last path segment is a secret token: /invite/<token> serves invite/index.html. */
const TOKEN_PAGES = ['invite', 'setup', 'reset', 'login/link', 'reply']

export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'",
  'x-frame-options': 'DENY',
}

/** What serves pages: the builder's current build, and what to do when its files have gone. */
export interface SiteSource {
  currentDir(): string | null
  lost(): string | null
}

const RETRY_SECONDS = 5
const BUILDING_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_SECONDS}"><title>One moment</title></head>
<body><main><h1>One moment</h1><p>The site is being built. This page tries again by itself in a few seconds.</p></main></body>
</html>
`

function cacheControl(file: string): string {
  if (file.includes(`${path.sep}_astro${path.sep}`)) return 'public, max-age=31536000, immutable'
  if (file.endsWith('.html')) return 'no-cache'
  // A service worker and what it imports are checked at each visit, so a new build's worker is picked up at once.
  if (/[/\\]sw(-[a-z]+)?\.js$/.test(file)) return 'no-cache'
  if (file.endsWith('.ics')) return 'public, max-age=300' // calendar apps poll; five minutes keeps them close
  return 'public, max-age=3600'
}

function fileFor(root: string, pathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    throw new HttpError(400, 'Malformed path')
  }
  if (decoded.includes('\0') || decoded.split('/').includes('..')) throw notFound()
  const segments = decoded.split('/').filter(Boolean)
  const page = segments.slice(0, -1).join('/')
  if (segments.length >= 2 && TOKEN_PAGES.includes(page)) return path.join(root, page, 'index.html')
  const target = path.resolve(root, '.' + decoded)
  if (target !== root && !target.startsWith(root + path.sep)) throw notFound()
  for (const candidate of [target, path.join(target, 'index.html'), target + '.html']) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

function building(method: string): Response {
  return new Response(method === 'HEAD' ? null : BUILDING_PAGE, {
    status: 503,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'retry-after': String(RETRY_SECONDS),
      'cache-control': 'no-store',
      ...PAGE_HEADERS,
    },
  })
}

/** A feed's validators by its path in the build: its content's hash, and when that content was first served. */
const feeds = new Map<string, { mtimeMs: number; size: number; etag: string; lastModified: string }>()

/**
 * ETag and Last-Modified of a calendar feed. Calendar apps poll every few minutes; a 304 spares them the whole feed.
 * Each build writes the files anew, so the tag is the content's hash and Last-Modified stays while the content does.
 */
function feedValidators(root: string, file: string) {
  const key = path.relative(root, file)
  const { mtimeMs, size } = statSync(file)
  const known = feeds.get(key)
  if (known?.mtimeMs === mtimeMs && known.size === size) return known
  const etag = `"${new Bun.CryptoHasher('sha256').update(readFileSync(file)).digest('base64url').slice(0, 27)}"`
  const lastModified = known?.etag === etag ? known.lastModified : new Date(mtimeMs).toUTCString()
  const fresh = { mtimeMs, size, etag, lastModified }
  feeds.set(key, fresh)
  return fresh
}

/** RFC 9110 §13.2.2: If-None-Match decides when sent; If-Modified-Since only without it. */
function notModified(request: Headers, etag: string, lastModified: string) {
  const match = request.get('if-none-match')
  if (match !== null) return noneMatch(match, etag)
  const since = Date.parse(request.get('if-modified-since') ?? '')
  return !Number.isNaN(since) && Date.parse(lastModified) <= since
}

function fromBuild(root: string, file: string | null, method: string, request: Headers): Response {
  const chosen = file ?? path.join(root, '404.html')
  const headers: Record<string, string> = {
    'cache-control': file ? cacheControl(chosen) : 'no-cache',
    'content-type': Bun.file(chosen).type,
  }
  if (chosen.endsWith('.html')) Object.assign(headers, PAGE_HEADERS)
  if (file && chosen.endsWith('.ics')) {
    const { etag, lastModified } = feedValidators(root, chosen)
    Object.assign(headers, { 'content-type': 'text/calendar; charset=utf-8', etag, 'last-modified': lastModified })
    if (notModified(request, etag, lastModified))
      return new Response(null, {
        status: 304,
        headers: { etag, 'last-modified': lastModified, 'cache-control': headers['cache-control'] },
      })
  }
  return new Response(method === 'HEAD' ? null : Bun.file(chosen), { status: file ? 200 : 404, headers })
}

export function serveStatic(site: SiteSource | null, pathname: string, method: string, request: Headers): Response {
  let root = site?.currentDir() ?? null
  // A miss on a build without its 404 page means the build itself is gone: find or make another.
  for (let tries = 0; root && tries < 2; tries++) {
    const file = fileFor(root, pathname)
    if (file || existsSync(path.join(root, '404.html'))) return fromBuild(root, file, method, request)
    root = site!.lost()
  }
  return building(method)
}
