// The public site and the admin section: every GET or HEAD the API does not answer is a page of the current build.
import { Elysia } from 'elysia'
import { serveStatic, type SiteSource } from '../site/static.ts'
import { notServed } from './error-response.ts'
import { requestPath } from './request-path.ts'

export function sitePages(site: SiteSource | null, allowed: (path: string) => string[]) {
  const page = ({ request }: { request: Request }) => {
    const path = requestPath(request) ?? '/'
    if (path === '/api' || path.startsWith('/api/')) throw notServed(request.method, path, allowed)
    return serveStatic(site, path, request.method, request.headers)
  }
  return new Elysia({ name: 'site-pages' }).get('/*', page).head('/*', page)
}
