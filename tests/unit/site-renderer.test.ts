// The site build's process is kept for the next build (server/site/renderer.ts): one process renders a burst of builds,
// each answered when the process says it is built; it ends when it has waited long enough for another, when the
// service stops, and after a build that fails, whose next build starts a new process.
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { SiteBuilder } from '../../server/site/builder.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'site-renderer-'))
const BUILD = path.join(import.meta.dir, '..', '..', 'server', 'site', 'build.ts')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * A stand-in for build.ts --serve: makes its cache folder (as a compile would), then for each output folder read on
 * stdin writes a site whose pages hold its process id and says `built <folder>`; it fails while a file "fail" is beside
 * the builds.
 */
const SERVE = [
  process.execPath,
  '-e',
  `const fs = require('fs')
   fs.mkdirSync(process.env.SITE_CACHE_DIR)
   for await (const folder of console) {
     if (fs.existsSync(folder + '/../fail')) throw new Error('the page answered 500')
     for (const f of ['index.html', '404.html']) fs.writeFileSync(folder + '/' + f, String(process.pid))
     process.stdout.write('built ' + folder + '\\n')
   }`,
]

async function builder(name: string, options: { idleMs?: number } = {}) {
  const db = await openMigrated(path.join(dir, `${name}.db`))
  const env = readEnv({ DATABASE_PATH: path.join(dir, `${name}.db`), SITE_BUILDS_DIR: path.join(dir, name) })
  const site = new SiteBuilder(db, env, { command: SERVE, ...options })
  /** The process that rendered the served build. */
  const renderedBy = () => Number(readFileSync(path.join(site.currentDir()!, 'index.html'), 'utf8'))
  return { db, site, renderedBy }
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits until the process `pid` has ended; throws after `ms`. */
async function ended(pid: number, ms = 10_000) {
  const deadline = Date.now() + ms
  while (running(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${ms} ms`)
    await Bun.sleep(20)
  }
}

describe('the site build process', () => {
  it('renders one build after another in one process, and ends with the service', async () => {
    const { db, site, renderedBy } = await builder('kept')
    const pids: number[] = []
    for (let i = 0; i < 3; i++) {
      expect((await site.build(`build ${i}`)).ok).toBe(true)
      pids.push(renderedBy())
    }
    expect(new Set(pids).size).toBe(1)
    expect(running(pids[0])).toBe(true)
    await site.stop()
    await ended(pids[0], 2000)
    await db.destroy()
  })

  it('ends once it has waited idleMs for another build; the next build starts a new one', async () => {
    const { db, site, renderedBy } = await builder('idle', { idleMs: 200 })
    expect((await site.build('first')).ok).toBe(true)
    const first = renderedBy()
    await ended(first)
    expect((await site.build('second')).ok).toBe(true)
    expect(renderedBy()).not.toBe(first)
    await site.stop()
    await db.destroy()
  })

  it('ends at a build that fails, which keeps the last good site, and the next build starts a new one', async () => {
    const { db, site, renderedBy } = await builder('failing')
    expect((await site.build('good')).ok).toBe(true)
    const first = renderedBy()
    writeFileSync(path.join(dir, 'failing', 'fail'), '')
    const failed = await site.build('bad')
    expect(failed.ok).toBe(false)
    expect(failed.error).toContain('the page answered 500')
    await ended(first)
    expect(renderedBy()).toBe(first)
    rmSync(path.join(dir, 'failing', 'fail'))
    expect((await site.build('fixed')).ok).toBe(true)
    expect(renderedBy()).not.toBe(first)
    await site.stop()
    await db.destroy()
  })

  it('removes its cache folder when it ends', async () => {
    const { db, site } = await builder('cache')
    expect((await site.build('test')).ok).toBe(true)
    const caches = () => [...new Bun.Glob('cache-*').scanSync({ cwd: path.join(dir, 'cache'), onlyFiles: false })]
    expect(caches()).toHaveLength(1)
    await site.stop()
    expect(caches()).toEqual([])
    expect(existsSync(path.join(dir, 'cache', 'current'))).toBe(true)
    await db.destroy()
  })

  it('is build.ts --serve: it answers each folder once built, and ends with exit 0 when its stdin closes', async () => {
    const db = await openMigrated(path.join(dir, 'real.db'))
    await db.destroy()
    const folder = path.join(dir, 'real-build')
    mkdirSync(folder)
    const proc = Bun.spawn([process.execPath, BUILD, '--serve'], {
      cwd: dir,
      env: { ...process.env, DATABASE_PATH: path.join(dir, 'real.db'), PUBLIC_BASE_URL: 'http://127.0.0.1:1' },
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    proc.stdin.write(`${folder}\n`)
    proc.stdin.flush()
    const reader = proc.stdout.getReader()
    let out = ''
    while (!out.includes(`built ${folder}\n`)) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`ended before it built: ${await new Response(proc.stderr).text()}`)
      out += new TextDecoder().decode(value)
    }
    expect(existsSync(path.join(folder, '404.html'))).toBe(true)
    proc.stdin.end()
    expect(await proc.exited).toBe(0)
    expect(await new Response(proc.stderr).text()).toBe('')
  }, 120_000)
})
