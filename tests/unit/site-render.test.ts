// The site build's rendering (server/site/build.ts) against a compiled site of its own making: where each path is
// written, what is left out, and a page that does not answer 200 failing the build instead of being written.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { render } from '../../server/site/build.ts'

const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})
const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-render-'))
  temps.push(dir)
  return dir
}

/** A compiled site whose app answers each path with its own name, and `status` for the paths given. */
function compiledSite(status: Record<string, number> = {}): string {
  const dir = temp()
  mkdirSync(path.join(dir, 'server'))
  mkdirSync(path.join(dir, 'client', '_astro'), { recursive: true })
  writeFileSync(path.join(dir, 'client', '_astro', 'page.js'), 'script')
  const route = (pathname: string | undefined, type: string, origin = 'project') => ({ routeData: { pathname, type, origin } })
  const routes = [
    route('/', 'page'),
    route('/404', 'page'),
    route('/admin/people', 'page'),
    route('/calendar.ics', 'endpoint'),
    route('/site-paths.json', 'endpoint'),
    route('/_image', 'endpoint', 'internal'),
    route(undefined, 'page'), // /units/[slug]: listed by /site-paths.json
  ]
  writeFileSync(
    path.join(dir, 'server', 'entry.mjs'),
    `const status = ${JSON.stringify(status)}
export const readAfresh = () => {}
export const app = {
  manifest: { routes: ${JSON.stringify(routes)} },
  async render(request) {
    const pathname = new URL(request.url).pathname
    if (pathname === '/site-paths.json') return Response.json(['/units/pack/', '/calendar/pack.ics'])
    return new Response('page ' + pathname, { status: status[pathname] ?? (pathname === '/404' ? 404 : 200) })
  },
}
`,
  )
  return dir
}

describe('rendering the compiled site', () => {
  it('writes a page into its folder, a file as named, the 404 page at the top, with the compiled files beside them', async () => {
    const out = temp()
    await render(compiledSite(), out)
    const read = (file: string) => readFileSync(path.join(out, file), 'utf8')
    expect(read('index.html')).toBe('page /')
    expect(read('admin/people/index.html')).toBe('page /admin/people/')
    expect(read('units/pack/index.html')).toBe('page /units/pack/')
    expect(read('calendar.ics')).toBe('page /calendar.ics')
    expect(read('calendar/pack.ics')).toBe('page /calendar/pack.ics')
    expect(read('404.html')).toBe('page /404')
    expect(read('_astro/page.js')).toBe('script')
    expect(existsSync(path.join(out, 'site-paths.json'))).toBe(false)
    expect(existsSync(path.join(out, '_image'))).toBe(false)
  })

  it('fails, naming the page, when one answers other than 200, and writes no 404 page (the build is not complete)', async () => {
    const out = temp()
    await expect(render(compiledSite({ '/units/pack/': 500 }), out)).rejects.toThrow('/units/pack/ answered 500')
    expect(existsSync(path.join(out, '404.html'))).toBe(false)
  })
})
