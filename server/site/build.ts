// One site build, run by SiteBuilder as a process of its own: Astro compiles the site once per version of its sources
// (a server bundle kept in node_modules/.site-compiled/<hash of the sources>), and each build renders every page of
// that bundle from the database into files. A rebuild after a leader's change is then the rendering alone: about 0.6
// CPU-seconds in a new process where a whole `astro build` took 2-3, and 0.15 in the process kept from the build
// before (--serve, renderer.ts).
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = path.join(import.meta.dir, '..', '..')
const SITE_ROOT = path.join(ROOT, 'site')
const ASTRO = path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs')
const WATCHDOG = path.join(import.meta.dir, 'build-watchdog.ts')
const COMPILED = path.join(ROOT, 'node_modules', '.site-compiled')
/** The list of the pages made from the data (site/src/pages/site-paths.json.ts); not itself a page of the site. */
const DATA_PATHS = '/site-paths.json'

/** Adds every file under `dir` (but dependencies, outputs and hidden folders) to `hash`, by path and content. */
function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) hashTree(hash, file)
    else hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0')
  }
}

/** What the compiled site is made from: the site's sources, the server's modules it bundles, and the packages. */
function sourceKey(): string {
  const hash = createHash('sha256')
  for (const dir of ['site', 'server']) hashTree(hash, path.join(ROOT, dir))
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json']) hash.update(readFileSync(path.join(ROOT, file)))
  hash.update(Bun.version)
  return hash.digest('hex').slice(0, 24)
}

/**
 * The compiled site for these sources, compiled now if no process has yet. A compile is made in a folder of its own and
 * published by one rename, so two processes compiling at once both finish, and the second's copy is dropped.
 */
async function compiledSite(): Promise<string> {
  const key = sourceKey()
  const dir = path.join(COMPILED, key)
  if (existsSync(path.join(dir, 'server', 'entry.mjs'))) return dir
  mkdirSync(COMPILED, { recursive: true })
  const making = path.join(COMPILED, `making-${process.pid}-${Date.now()}`)
  mkdirSync(making)
  // Run from the output folder: Astro keeps scratch files under its working directory when the output is outside it.
  const astro = Bun.spawn([process.execPath, '--bun', '--preload', WATCHDOG, ASTRO, 'build', '--silent', '--root', SITE_ROOT], {
    cwd: making,
    // The compile ends itself once this build is gone (the watchdog names its parent by SITE_BUILD_SERVICE_PID).
    env: { ...process.env, SITE_OUT_DIR: making, SITE_BUILD_SERVICE_PID: String(process.pid), ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const code = await astro.exited
  if (code !== 0 || !existsSync(path.join(making, 'server', 'entry.mjs'))) {
    rmSync(making, { recursive: true, force: true })
    throw new Error(`astro build exited with ${code} and compiled no site`)
  }
  try {
    renameSync(making, dir)
  } catch {
    rmSync(making, { recursive: true, force: true }) // another process published the same compile first
  }
  tidy(key)
  return dir
}

/**
 * Removes compiles of other sources (an upgrade's leftovers) and half-made ones whose process has ended. A compile
 * under way is told by its process, not its age: a build under faketime (the tests) reads another clock.
 */
function tidy(keep: string): void {
  for (const name of readdirSync(COMPILED)) {
    if (name === keep || (name.startsWith('making-') && running(Number(name.split('-')[1])))) continue
    rmSync(path.join(COMPILED, name), { recursive: true, force: true })
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

interface RouteData {
  pathname?: string
  type: string
  origin: string
}

/** Where a page's path is written: a page's into its folder's index.html (the 404 page beside them), a file's as is. */
function fileOf(pathname: string): string {
  if (pathname === '/404') return '404.html'
  return pathname.endsWith('/') ? `${pathname.slice(1)}index.html` : pathname.slice(1)
}

/** Renders every page of the compiled site into `outDir`, beside the compiled site's own files (scripts, styles, icons). */
export async function render(compiled: string, outDir: string): Promise<void> {
  const { app, readAfresh } = await import(pathToFileURL(path.join(compiled, 'server', 'entry.mjs')).href)
  readAfresh() // a process kept between builds (--serve) reads what changed since its last
  const get = async (pathname: string) => {
    const res: Response = await app.render(new Request(new URL(pathname, 'http://localhost')))
    if (res.status !== (pathname === '/404' ? 404 : 200)) throw new Error(`${pathname} answered ${res.status} while the site was rendered`)
    return new Uint8Array(await res.arrayBuffer())
  }
  const fixed = (app.manifest.routes as { routeData: RouteData }[])
    .map((r) => r.routeData)
    .filter((r) => r.origin !== 'internal' && r.pathname !== undefined && r.pathname !== DATA_PATHS)
    .map((r) => (r.type === 'page' && r.pathname !== '/' && r.pathname !== '/404' ? `${r.pathname}/` : r.pathname!))
  const fromData: string[] = JSON.parse(new TextDecoder().decode(await get(DATA_PATHS)))
  cpSync(path.join(compiled, 'client'), outDir, { recursive: true })
  // The 404 page last: a build folder holds a complete site once it is there (SiteBuilder).
  const paths = [...fixed.filter((p) => p !== '/404'), ...fromData, '/404']
  for (const pathname of paths) {
    const file = path.join(outDir, fileOf(pathname))
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, await get(pathname))
  }
}

/**
 * Kept by SiteBuilder between builds (renderer.ts): renders a build into each output folder read as a line on stdin and
 * answers `built <folder>`; ends when stdin closes. A build that fails ends the process, so the next starts afresh.
 */
async function serve(): Promise<void> {
  for await (const folder of console) {
    if (!folder) continue // Bun's line reader gives an empty last line when stdin closes
    await render(await compiledSite(), folder)
    process.stdout.write(`built ${folder}\n`)
  }
}

if (import.meta.main) {
  if (process.argv.includes('--serve')) await serve()
  else await render(await compiledSite(), process.env.SITE_OUT_DIR ?? process.cwd())
  process.exit(0)
}
