// Each site build has its own Astro cache folder (SITE_CACHE_DIR), beside its output in the database's builds folder
// and removed once the build ends: builds of two processes at once (test files in parallel workers, two services in one
// checkout) share no cache.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { SiteBuilder } from '../../server/site/builder.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'site-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A stand-in for astro: notes the cache folder it was given beside its output folder, and whether it exists yet. */
const COMMAND = [
  process.execPath,
  '-e',
  "const fs = require('fs'); fs.writeFileSync(process.env.SITE_OUT_DIR + '.cache', process.env.SITE_CACHE_DIR); fs.mkdirSync(process.env.SITE_CACHE_DIR, { recursive: true })",
]

async function buildOnce(name: string) {
  const db = await openMigrated(path.join(dir, `${name}.db`))
  const env = readEnv({ DATABASE_PATH: path.join(dir, `${name}.db`), SITE_BUILDS_DIR: path.join(dir, name) })
  const site = new SiteBuilder(db, env, { command: COMMAND })
  await site.build('test')
  await site.stop()
  await db.destroy()
  const notes = new Bun.Glob('*.cache').scanSync(path.join(dir, name)).next().value as string
  return readFileSync(path.join(dir, name, notes), 'utf8')
}

describe('the site build cache', () => {
  it('is a folder of each build in its own builds folder, removed after the build', async () => {
    const [first, second] = await Promise.all([buildOnce('one'), buildOnce('two')])
    expect(path.dirname(first)).toBe(path.join(dir, 'one'))
    expect(path.dirname(second)).toBe(path.join(dir, 'two'))
    expect(path.basename(first)).toMatch(/^cache-build-\d+-\d+$/)
    expect(existsSync(first)).toBe(false)
    expect(existsSync(second)).toBe(false)
  })
})

describe('SITE_BUILD_NICENESS', () => {
  /** A stand-in for astro that writes its own niceness beside its output folder. */
  const NICENESS = [
    process.execPath,
    '-e',
    "require('fs').writeFileSync(process.env.SITE_OUT_DIR + '.nice', String(require('os').getPriority()))",
  ]

  it('runs the build at that much lower priority than the service: 0 is the same priority, 10 by default', async () => {
    const niceness: Record<string, number> = {}
    for (const [name, value] of [
      ['same', '0'],
      ['default', undefined],
    ] as const) {
      const db = await openMigrated(path.join(dir, `${name}.db`))
      const env = readEnv({
        DATABASE_PATH: path.join(dir, `${name}.db`),
        SITE_BUILDS_DIR: path.join(dir, name),
        SITE_BUILD_NICENESS: value,
      })
      const site = new SiteBuilder(db, env, { command: NICENESS })
      await site.build('test')
      await site.stop()
      await db.destroy()
      const file = new Bun.Glob('*.nice').scanSync(path.join(dir, name)).next().value as string
      niceness[name] = Number(readFileSync(path.join(dir, name, file), 'utf8'))
    }
    const own = (await import('node:os')).getPriority()
    expect(niceness).toEqual({ same: own, default: Bun.which('nice') ? Math.min(19, own + 10) : own })
  })

  it('refuses a value outside 0-19', () => {
    for (const value of ['20', '-1', 'low', '2.5'])
      expect(() => readEnv({ SITE_BUILD_NICENESS: value })).toThrow(/SITE_BUILD_NICENESS must be 0-19/)
  })
})
