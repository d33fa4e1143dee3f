// Where a browser goes after signing in: a path on this site only, never another origin (used by the
// login route and the login page's script alike).
const BASE = 'http://same-site.invalid'

/** Where `target` leads when a browser on this site follows it, or null when it cannot be read. */
function resolve(target: string): URL | null {
  try {
    return new URL(target, BASE)
  } catch {
    return null
  }
}

/**
 * `next` when it is a path on this site (`/admin/roster/?unit=pack`), else the fallback. `next` is resolved
 * against the site's origin and the result must stay on it; the path given back is the resolved one, and it must
 * still resolve to this site when a browser reads it again (`/.//evil.example` resolves to the path
 * `//evil.example`, which a browser would read as another host).
 */
export function sameSitePath(next: string | null | undefined, fallback = '/admin/'): string {
  // A backslash or a control character is read as a slash or dropped by browsers: `/\evil.example` is off-site.
  if (!next || !next.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(next)) return fallback
  const url = resolve(next)
  if (url?.origin !== BASE) return fallback
  const path = url.pathname + url.search + url.hash
  return !path.startsWith('//') && resolve(path)?.origin === BASE ? path : fallback
}
