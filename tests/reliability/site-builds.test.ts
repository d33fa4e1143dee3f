// Site builds on a real box: the data folder on another file system than the checkout (a cross-device rename
// broke every build), and a service killed with SIGKILL mid-build (its build process lived on, hundreds of MB each).
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMigrated } from '../../server/backups/migrate.ts'
import { readEnv } from '../../server/env.ts'
import { SiteBuilder } from '../../server/site/builder.ts'

const ROOT = path.join(import.meta.dir, '..', '..')
const folders: string[] = []
const folderIn = (parent: string) => {
  const dir = mkdtempSync(path.join(parent, 'site-builds-'))
  folders.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The fields after the command name (which may hold spaces) start after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) found.push(Number(entry))
    } catch {
      // The process ended while it was read.
    }
  }
  return found
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')

async function until(what: string, ready: () => boolean, ms = 60_000) {
  const deadline = Date.now() + ms
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await Bun.sleep(25)
  }
}

describe('a data folder on another file system than the checkout', () => {
  it('builds and serves the site (no cross-device rename)', async () => {
    const dir = folderIn('/dev/shm')
    expect(statSync(dir).dev).not.toBe(statSync(ROOT).dev) // the case the review met: /var on its own mount
    const env = readEnv({ DATABASE_PATH: path.join(dir, 'site.db'), SITE_BUILD_NICENESS: process.env.SITE_BUILD_NICENESS })
    const db = await openMigrated(env.databasePath)
    const site = new SiteBuilder(db, env)
    try {
      const outcome = await site.build('test')
      expect(outcome.error).toBeNull()
      expect(outcome.ok).toBe(true)
      const served = site.currentDir()!
      expect(served.startsWith(dir)).toBe(true)
      expect(existsSync(path.join(served, 'index.html'))).toBe(true)
      expect(readdirSync(served)).not.toContain('.prerender') // the build's scratch files do not stay in what is served
    } finally {
      await site.stop()
      await db.destroy()
    }
  })
})

describe('a service killed with SIGKILL while it builds the site', () => {
  it('leaves no build running, and the next start builds and serves', async () => {
    const dir = folderIn(tmpdir())
    const start = () =>
      Bun.spawn([process.execPath, path.join(ROOT, 'server', 'main.ts')], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: 'production', DATABASE_PATH: path.join(dir, 'site.db'), PORT: '0' },
        stdin: 'ignore',
        stdout: 'pipe',
        stderr: 'pipe',
      })
    const first = start()
    // The first start builds before it listens: wait for that build's process, then kill the service under it. The
    // build is held still (SIGSTOP) the moment it is seen, so it is still mid-build when its service dies, however long
    // a busy machine keeps this test from its next step (a render takes well under a second).
    let builds: number[] = []
    await until('the first build starts', () => {
      builds = childrenOf(first.pid)
      for (const pid of builds) process.kill(pid, 'SIGSTOP')
      return builds.length > 0
    })
    first.kill('SIGKILL')
    await first.exited
    for (const pid of builds) process.kill(pid, 'SIGCONT')
    await until('the orphaned build ends', () => builds.every((pid) => !alive(pid)), 10_000)
    // It ended because its service did, not because it finished: no build folder holds a complete site.
    const buildsDir = path.join(dir, 'site-builds', 'site.db')
    const made = readdirSync(buildsDir).filter((f) => f.startsWith('build-'))
    expect(made.length).toBeGreaterThan(0)
    for (const build of made) expect(existsSync(path.join(buildsDir, build, '404.html'))).toBe(false)

    const second = start()
    try {
      const reader = second.stdout.getReader()
      let out = ''
      while (!/\(port (\d+)/.test(out)) {
        const { done, value } = await reader.read()
        if (done) throw new Error(`the second start ended: ${out}`)
        out += new TextDecoder().decode(value)
      }
      reader.releaseLock()
      expect(out).toContain('Site built in')
      const port = /\(port (\d+)/.exec(out)![1]
      const page = await fetch(`http://127.0.0.1:${port}/`)
      expect(page.status).toBe(200)
    } finally {
      second.kill('SIGTERM')
      await second.exited
    }
  }, 120_000)
})
