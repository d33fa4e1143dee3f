// The public site and the admin section: every GET or HEAD the API does not answer is a page of the current build;
// a path with no page that a route serves with another method (`/logout`, `/login/passkey`) is 405 with `Allow`.
// The service's own prefixes (/api/, and the uploaded files and photos) are never the build's: a miss there is the
// API's 404 or 405, whether or not a build is there yet.
import { Elysia } from 'elysia'
import { serveStatic, type SiteSource } from './static.ts'
import { notServed } from '../http/error-response.ts'
import { requestPath } from '../http/request-path.ts'

const SERVICE_PREFIXES = ['/api/', '/files/', '/photos/']

export function sitePages(site: SiteSource | null, allowed: (path: string) => string[]) {
  const page = ({ request }: { request: Request }) => {
    const path = requestPath(request) ?? '/'
    if (SERVICE_PREFIXES.some((prefix) => path === prefix.slice(0, -1) || path.startsWith(prefix)))
      throw notServed(request.method, path, allowed)
    const answer = serveStatic(site, path, request.method, request.headers)
    if (answer.status === 404 && allowed(path).length) {
      void answer.body?.cancel()
      throw notServed(request.method, path, allowed)
    }
    return answer
  }
  return new Elysia({ name: 'site-pages' }).get('/*', page).head('/*', page)
}
