// Before routing, for every request: a readable path (400 otherwise), the client address, and for the admin
// API and its docs the credential (401 without one, 403 from a network it may not be used from), then the
// CSRF rule for browser writes. Unknown admin paths get 401 too, so they reveal nothing to the anonymous.
import { Elysia } from 'elysia'
import { type AuthContext, authenticate } from '../auth/credential.ts'
import { badRequest, forbidden, unauthorized } from '../errors.ts'
import { requestOrigin, requestPath } from './request-path.ts'
import { requestState } from './request-state.ts'

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Paths that need a credential: the admin API and its docs. */
export const isAdminPath = (path: string) => path === '/api/admin' || path.startsWith('/api/admin/')
export const isDocsPath = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/')

export function credentials(auth: AuthContext) {
  const ownOrigin = new URL(auth.env.publicBaseUrl).origin
  return new Elysia({ name: 'credentials' }).onRequest(async ({ request, server }) => {
    const path = requestPath(request)
    if (path === null) throw badRequest('The request URL or its Host header cannot be read')
    const address = auth.rules.clientAddress(server?.requestIP(request)?.address ?? null, request.headers.get('x-forwarded-for'))
    const guarded = isAdminPath(path) || isDocsPath(path)
    const caller = guarded ? await authenticate(auth, request, address) : null
    requestState.set(request, { path, address, caller })
    if (guarded && !caller) throw unauthorized()
    if (isDocsPath(path) && (caller?.via !== 'session' || !caller.capabilities.has('api:docs')))
      throw forbidden('The API docs need a signed-in leader, admin or owner')

    // CSRF: a browser-driven write must come from our own pages. Keys and the break-glass token are headers a
    // browser never adds by itself; a write with neither Origin nor Sec-Fetch-Site is a script.
    if (UNSAFE.has(request.method) && caller?.via !== 'key' && caller?.via !== 'break_glass') {
      const origin = request.headers.get('origin')
      if (origin && origin !== ownOrigin && origin !== requestOrigin(request))
        throw forbidden('Cross-site request refused (Origin does not match this site)')
      if (request.headers.get('sec-fetch-site') === 'cross-site') throw forbidden('Cross-site request refused (Sec-Fetch-Site: cross-site)')
    }
  })
}
