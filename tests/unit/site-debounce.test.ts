// The site builder's debounce: a burst of writes makes one build once it goes quiet, a steady stream still gets one
// after the longest wait, and the build runs at a lower priority than the service.
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { SiteBuilder } from '../../server/site/builder.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'site-debounce-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A stand-in for astro: writes its own niceness beside the output folder and fails (no site is needed here). */
const COMMAND = [
  process.execPath,
  '-e',
  "require('fs').writeFileSync(process.env.SITE_OUT_DIR + '.nice', String(require('os').getPriority()))",
]

async function builder(name: string, options: { debounceMs: number; maxWaitMs: number }) {
  const db = await openMigrated(path.join(dir, `${name}.db`))
  const env = readEnv({ DATABASE_PATH: path.join(dir, `${name}.db`), SITE_BUILDS_DIR: path.join(dir, name) })
  const site = new SiteBuilder(db, env, { ...options, command: COMMAND })
  const builds = () => db.selectFrom('site_builds').select('started_at').orderBy('id').execute()
  return { db, site, builds }
}

/** Asks for a build every 20 ms for `ms`; resolves with when the last ask was made. */
async function burst(site: SiteBuilder, ms: number) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    site.request()
    await Bun.sleep(20)
  }
  return Date.now()
}

describe('SiteBuilder.request', () => {
  it('makes one build for a burst of writes, after it goes quiet', async () => {
    const { db, site, builds } = await builder('quiet', { debounceMs: 500, maxWaitMs: 60_000 })
    const last = await burst(site, 1500)
    await site.settled()
    const made = await builds()
    expect(made.length).toBe(1)
    expect(Date.parse(made[0].started_at)).toBeGreaterThanOrEqual(last)
    await site.stop()
    await db.destroy()
  })

  it('starts a build within the longest wait while writes keep coming, at a lower priority', async () => {
    const { db, site, builds } = await builder('steady', { debounceMs: 60_000, maxWaitMs: 200 })
    const last = await burst(site, 1000)
    await site.settled()
    const made = await builds()
    expect(Date.parse(made[0].started_at)).toBeLessThan(last)
    if (Bun.which('nice')) {
      const out = path.join(dir, 'steady')
      const nice = new Bun.Glob('*.nice').scanSync(out).next().value as string
      expect(Number(readFileSync(path.join(out, nice), 'utf8'))).toBeGreaterThan(0)
    }
    await site.stop()
    await db.destroy()
  })
})
