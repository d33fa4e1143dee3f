// Where a browser goes after signing in: a path on this site only, never another origin (used by the
// login route and the login page's script alike).
const BASE = 'http://same-site.invalid'

/** `next` when it is a path on this site (`/admin/roster/?unit=pack`), else the fallback. */
export function sameSitePath(next: string | null | undefined, fallback = '/admin/'): string {
  // A backslash or a control character is read as a slash or dropped by browsers: `/\evil.example` is off-site.
  if (!next || !next.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(next)) return fallback
  try {
    const url = new URL(next, BASE)
    return url.origin === BASE ? url.pathname + url.search + url.hash : fallback
  } catch {
    return fallback
  }
}
