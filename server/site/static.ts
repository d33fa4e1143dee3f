// Serves the current site build: cache headers by kind of file, the 404 page, token pages, no traversal,
// and a small "being built" page (503) while there is no complete build to serve.
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { HttpError, notFound } from '../errors.ts'

/** Pages whose last path segment is a secret token: /invite/<token> serves invite/index.html. */
const TOKEN_PAGES = ['invite', 'setup', 'reset']

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
  if (segments.length === 2 && TOKEN_PAGES.includes(segments[0])) return path.join(root, segments[0], 'index.html')
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

function fromBuild(root: string, file: string | null, method: string): Response {
  const chosen = file ?? path.join(root, '404.html')
  const headers: Record<string, string> = {
    'cache-control': file ? cacheControl(chosen) : 'no-cache',
    'content-type': Bun.file(chosen).type,
  }
  if (chosen.endsWith('.html')) Object.assign(headers, PAGE_HEADERS)
  return new Response(method === 'HEAD' ? null : Bun.file(chosen), { status: file ? 200 : 404, headers })
}

export function serveStatic(site: SiteSource | null, pathname: string, method: string): Response {
  let root = site?.currentDir() ?? null
  // A miss on a build without its 404 page means the build itself is gone: find or make another.
  for (let tries = 0; root && tries < 2; tries++) {
    const file = fileFor(root, pathname)
    if (file || existsSync(path.join(root, '404.html'))) return fromBuild(root, file, method)
    root = site!.lost()
  }
  return building(method)
}
