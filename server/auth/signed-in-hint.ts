// The readable cookie beside the session cookie: who is signed in and where their pages start, for the header of
// the static public pages. It proves nothing; the session cookie does.
export const SIGNED_IN_COOKIE = 'site_signed_in'

export interface SignedInHint {
  name: string
  start: '/admin/' | '/family/'
}

/** The hint in a Cookie header or `document.cookie`, or null. */
export function readHint(cookies: string): SignedInHint | null {
  const raw = cookies
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`))
    ?.slice(SIGNED_IN_COOKIE.length + 1)
  if (!raw) return null
  try {
    const hint = JSON.parse(decodeURIComponent(raw))
    return typeof hint?.name === 'string' && (hint.start === '/admin/' || hint.start === '/family/') ? hint : null
  } catch {
    return null
  }
}
