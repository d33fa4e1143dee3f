// The public site and the admin section: every GET or HEAD the API does not answer is a page of the current build;
// a path with no page that a route serves with another method (`/logout`, `/login/passkey`) is 405 with `Allow`.
import { Elysia } from 'elysia'
import { serveStatic, type SiteSource } from './static.ts'
import { notServed } from '../http/error-response.ts'
import { requestPath } from '../http/request-path.ts'

export function sitePages(site: SiteSource | null, allowed: (path: string) => string[]) {
  const page = ({ request }: { request: Request }) => {
    const path = requestPath(request) ?? '/'
    if (path === '/api' || path.startsWith('/api/')) throw notServed(request.method, path, allowed)
    const answer = serveStatic(site, path, request.method, request.headers)
    if (answer.status === 404 && allowed(path).length) {
      void answer.body?.cancel()
      throw notServed(request.method, path, allowed)
    }
    return answer
  }
  return new Elysia({ name: 'site-pages' }).get('/*', page).head('/*', page)
}
