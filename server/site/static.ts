// Serves the current site build: cache headers by kind of file, the 404 page, token pages, no traversal.
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

export function serveStatic(root: string | null, pathname: string, method: string): Response {
  if (!root)
    return new Response(JSON.stringify({ detail: 'The site is being built; try again in a few seconds' }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '5' },
    })
  const file = fileFor(root, pathname)
  const status = file ? 200 : 404
  const chosen = file ?? path.join(root, '404.html')
  const body = method === 'HEAD' ? null : Bun.file(chosen)
  const headers: Record<string, string> = {
    'cache-control': file ? cacheControl(chosen) : 'no-cache',
    'content-type': Bun.file(chosen).type,
  }
  if (chosen.endsWith('.html')) Object.assign(headers, PAGE_HEADERS)
  return new Response(body, { status, headers })
}
