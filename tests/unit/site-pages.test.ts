// Pages and routes at the same paths: a GET of a path with no page that a route serves with another method is 405
// with Allow (`/logout`, `/login/passkey`), while a page beside a route (`/login`) is still the page; and Allow names
// the methods of the route that fits a path most exactly (`/api/admin/pages/preview` beside `/pages/{slug}`).
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Elysia } from 'elysia'
import { errorHandling } from '#server/http/error-response.ts'
import { methodsAt } from '#server/http/file-routes.ts'
import { sitePages } from '#server/site/pages.ts'
import { loadRoutes } from '#server/routes.ts'

const root = mkdtempSync(path.join(tmpdir(), 'site-pages-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
writeFileSync(path.join(root, '404.html'), 'no such page')
mkdirSync(path.join(root, 'login'))
writeFileSync(path.join(root, 'login', 'index.html'), 'the sign-in page')

const allowed = methodsAt(await loadRoutes())
const site = { currentDir: () => root, lost: () => root }
const app = new Elysia().use(errorHandling(allowed)).use(sitePages(site, allowed))
const get = (p: string, method = 'GET') => app.handle(new Request(`http://localhost${p}`, { method }))

describe('pages beside routes', () => {
  it('answers 405 with Allow to GET or HEAD of a route path with no page', async () => {
    for (const [p, allow] of [
      ['/logout', 'POST'],
      ['/login/passkey', 'POST'],
      ['/login/passkey/options', 'POST'],
    ]) {
      const res = await get(p)
      expect([p, res.status, res.headers.get('allow')]).toEqual([p, 405, allow])
      expect((await get(p, 'HEAD')).status).toBe(405)
    }
  })

  it('still serves a page where a route takes another method, and 404 where neither is', async () => {
    const login = await get('/login')
    expect([login.status, await login.text()]).toEqual([200, 'the sign-in page'])
    expect((await get('/no-such-page')).status).toBe(404)
  })
})

describe('Allow', () => {
  it('names the methods of a fixed path only, not those of a parameter path beside it', () => {
    expect(allowed('/api/admin/pages/preview')).toEqual(['POST'])
    expect(allowed('/api/admin/pages/about').sort()).toEqual(['DELETE', 'GET', 'PATCH'])
  })
})
