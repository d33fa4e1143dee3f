// The route registry: URLs come from file paths and every route declares what the loader needs.
import { describe, expect, it } from 'bun:test'
import { CAPABILITIES } from '../../server/auth/capabilities.ts'
import { loadRoutes, urlOf } from '../../server/routes.ts'

describe('urlOf', () => {
  it('maps files to URLs', () => {
    expect(urlOf('api/admin/keys/[id].ts')).toBe('/api/admin/keys/:id')
    expect(urlOf('api/admin/keys/index.ts')).toBe('/api/admin/keys')
    expect(urlOf('api/admin/socialposts/[...post_id].ts')).toBe('/api/admin/socialposts/*')
    expect(urlOf('login.ts')).toBe('/login')
  })
})

describe('route registry', async () => {
  const routes = await loadRoutes()
  it('gives every route a capability (or public) and a one-line summary', () => {
    for (const r of routes) {
      expect(['public', 'any', ...CAPABILITIES], r.file).toContain(r.def.auth)
      expect(r.def.summary.length, r.file).toBeGreaterThan(5)
      expect(r.def.summary, r.file).not.toContain('\n')
    }
  })
  it('makes every admin route need a credential', () => {
    for (const r of routes.filter((r) => r.path.startsWith('/api/admin'))) expect(r.def.auth, r.file).not.toBe('public')
  })
  it('refuses unknown fields on every body', () => {
    // A body of one of several shapes refuses them in each shape.
    const shapes = (body: any): any[] => body.anyOf ?? [body]
    for (const r of routes.filter((r) => r.def.body))
      for (const shape of shapes(r.def.body)) expect(shape.additionalProperties, r.file).toBe(false)
  })
  it('keeps route files adapters: no SQL, no transaction, imports through #server/ only', async () => {
    for (const r of routes) {
      const source = await Bun.file(r.file).text()
      expect(source, r.file).not.toMatch(/from 'kysely'|\.transaction\(|selectFrom|insertInto|updateTable|deleteFrom/)
      expect(source, r.file).not.toMatch(/from '\.\.?\//)
    }
  })
})
