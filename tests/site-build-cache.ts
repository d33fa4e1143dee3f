// The test servers' site build command: the real Astro build, except that a test server's first build (before its
// test writes anything) is copied from an earlier build of the same content when there is one. Most test files start
// on the same migrated template database, so they would build the same site again and again; the key is everything the
// build reads: the site's and the server's source files, the packages, the service's settings from the environment, every
// row of the database, and the clock to the hour (pages show "today"). Only first builds: later ones follow a test's
// writes, and a test may wait on the clock (an announcement starting) with unchanged rows, so they always build.
// Run as the build process itself (SiteBuilder runs it in the build's output folder, with its environment).
import { createHash } from 'node:crypto'
import { Database } from 'bun:sqlite'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readEnv } from '../server/env.ts'

const ROOT = path.join(import.meta.dir, '..')
const WATCHDOG = path.join(ROOT, 'server', 'site', 'build-watchdog.ts')
const ASTRO = [process.execPath, '--bun', '--preload', WATCHDOG, path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs')]
const ASTRO_BUILD = [...ASTRO, 'build', '--silent', '--root', path.join(ROOT, 'site')]
const CACHE = path.join(tmpdir(), 'scout-test-site-builds')
/** The marker a test server puts beside its builds while its first build runs (see startServerWithSite). */
export const FIRST_BUILD_MARKER = 'first-build-may-be-cached'

/** The command for SiteBuilder's `command` option. */
export const CACHED_BUILD = [process.execPath, '--preload', WATCHDOG, import.meta.path]

function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) hashTree(hash, file)
    else hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0')
  }
}

/** The cache key of the site a build with these variables (the build's own environment) makes. */
export function contentKey(vars: Record<string, string | undefined> = process.env): string {
  const databasePath = vars.DATABASE_PATH!
  const hash = createHash('sha256')
  for (const dir of ['site', 'server']) hashTree(hash, path.join(ROOT, dir))
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json']) hash.update(readFileSync(path.join(ROOT, file)))
  // Each server's own folders (the build reads none of them) would make every key new.
  const { databasePath: _db, siteBuildsDir: _builds, backupDir: _backups, filesDir: _files, ...settings } = readEnv(vars)
  hash.update(JSON.stringify({ settings, tz: process.env.TZ ?? null, hour: new Date().toISOString().slice(0, 13) }))
  const db = new Database(databasePath, { readonly: true })
  try {
    const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    for (const { name } of tables)
      hash
        .update(name)
        .update(
          JSON.stringify(db.query(`SELECT * FROM "${name.replaceAll('"', '""')}"`).values(), (_k, v) =>
            v instanceof Uint8Array ? [...v] : v,
          ),
        )
  } finally {
    db.close()
  }
  return hash.digest('hex').slice(0, 24)
}

async function astroBuild(): Promise<number> {
  return Bun.spawn(ASTRO_BUILD, { stdio: ['inherit', 'inherit', 'inherit'] }).exited
}

if (import.meta.main) {
  const outDir = process.cwd()
  if (!existsSync(path.join(outDir, '..', FIRST_BUILD_MARKER))) process.exit(await astroBuild())
  const cached = path.join(CACHE, contentKey())
  if (existsSync(path.join(cached, '404.html'))) {
    cpSync(cached, outDir, { recursive: true })
    process.exit(0)
  }
  const code = await astroBuild()
  if (code === 0 && existsSync(path.join(outDir, '404.html'))) {
    // Published by an atomic rename, so a build copying it at once never sees half a site.
    mkdirSync(CACHE, { recursive: true })
    const scratch = mkdtempSync(path.join(CACHE, 'making-'))
    cpSync(outDir, scratch, { recursive: true })
    try {
      renameSync(scratch, cached)
    } catch {
      rmSync(scratch, { recursive: true, force: true }) // another process published the same build first
    }
  }
  process.exit(code)
}
