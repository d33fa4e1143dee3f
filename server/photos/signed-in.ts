// Who asks for a photo or file URL: the session cookie alone (an <img> sends nothing else), or nobody. A dead or
// missing session is an anonymous visitor here, never a 401: such a URL answers only 200 or 404. So is a session whose
// second factor is overdue: it reaches only the account page, like the rest of the members-only area.
import { authenticate, type Caller } from '../auth/credential.ts'
import type { Services } from '../services.ts'

export async function signedInCaller(
  services: Pick<Services, 'db' | 'env' | 'addresses' | 'loginThrottle'>,
  request: Request,
): Promise<Caller | null> {
  const cookie = request.headers.get('cookie')
  if (!cookie) return null
  // Only the cookie goes on: keys and the break-glass token are for the API, not for pages' images.
  const cookieOnly = new Request(request.url, { headers: { cookie } })
  const ctx = { db: services.db, env: services.env, rules: services.addresses, breakGlass: services.loginThrottle }
  try {
    const caller = await authenticate(ctx, cookieOnly, () => null)
    return caller?.secondFactor?.locked ? null : caller
  } catch {
    return null
  }
}
