// Headers on every answer: no MIME sniffing, no referrer to other sites, and no caching of admin answers.
import { Elysia } from 'elysia'
import { isAdminPath, isDocsPath } from './credentials.ts'
import { requestPath } from './request-path.ts'

export function securityHeaders() {
  return new Elysia({ name: 'security-headers' }).onRequest(({ request, set }) => {
    set.headers['x-content-type-options'] = 'nosniff'
    set.headers['referrer-policy'] = 'same-origin'
    const path = requestPath(request)
    if (path && (isAdminPath(path) || isDocsPath(path))) set.headers['cache-control'] = 'no-store'
  })
}
