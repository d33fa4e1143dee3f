// Regenerates the Astro site after public-data writes: debounced, one build at a time, in a child
// process, into a fresh directory that is swapped in atomically; a failed build keeps the last good site.
import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import type { Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { record } from '../history/record.ts'

const SITE_ROOT = path.join(import.meta.dir, '..', '..', 'site')
const ASTRO = path.join(import.meta.dir, '..', '..', 'node_modules', 'astro', 'bin', 'astro.mjs')
const KEEP_BUILDS = 2

export interface BuildOutcome {
  ok: boolean
  duration_ms: number
  error: string | null
}

export class SiteBuilder {
  private timer: Timer | null = null
  private running: Promise<BuildOutcome> | null = null
  private followUp: Promise<BuildOutcome> | null = null
  private stopped = false
  private periodic: Timer | null = null
  private timed: Timer | null = null
  private served: string | null

  private debounceMs: number
  private command: string[]
  private nextChange: () => Promise<number | null>
  private prepare: () => Promise<void>

  constructor(
    private db: Db,
    private env: Readonly<Env>,
    options: {
      debounceMs?: number
      /** The build command; tests swap in a failing one. */
      command?: string[]
      /** When the built pages go stale by themselves (an announcement starting or ending), to rebuild then. */
      nextChange?: () => Promise<number | null>
      /** Runs before each build: refreshes copies of outside data (the calendar store). */
      prepare?: () => Promise<void>
    } = {},
  ) {
    this.debounceMs = options.debounceMs ?? 300
    this.command = options.command ?? [process.execPath, '--bun', ASTRO, 'build', '--silent']
    this.nextChange = options.nextChange ?? (async () => null)
    this.prepare = options.prepare ?? (async () => {})
    mkdirSync(env.siteBuildsDir, { recursive: true })
    const link = path.join(env.siteBuildsDir, 'current')
    this.served = existsSync(link) ? path.join(env.siteBuildsDir, readlinkSync(link)) : null
  }

  /** The directory being served, or null before the first good build. */
  currentDir(): string | null {
    return this.served
  }

  get busy(): boolean {
    return this.running !== null || this.timer !== null
  }

  /** Asks for a rebuild soon; many requests within the debounce window make one build. */
  request(reason = 'data changed'): void {
    if (this.timer || this.stopped) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.build(reason)
    }, this.debounceMs)
  }

  /** Rebuilds every `minutes` to pick up changes made outside the site (the calendar store). */
  startPeriodic(minutes: number): void {
    if (this.periodic) clearInterval(this.periodic)
    this.periodic = setInterval(() => this.request('periodic'), minutes * 60_000)
  }

  /**
   * Builds now, or, while a build runs, once more right after it (every caller meanwhile shares that
   * one follow-up build, which sees all their changes). Resolves with the outcome of the build that covers the call.
   */
  build(reason = 'requested'): Promise<BuildOutcome> {
    if (this.stopped) return Promise.resolve({ ok: false, duration_ms: 0, error: 'the site builder is stopped' })
    if (!this.running) return this.start(reason)
    this.followUp ??= this.running
      .catch(() => {})
      .then(() => {
        this.followUp = null
        return this.build(reason)
      })
    return this.followUp
  }

  private start(reason: string): Promise<BuildOutcome> {
    const run = this.runOnce(reason).finally(() => {
      if (this.running === run) this.running = null
    })
    this.running = run
    return run
  }

  /** Stops scheduling and waits for a build under way, so nothing writes after the database closes. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const t of [this.timed, this.timer]) if (t) clearTimeout(t)
    if (this.periodic) clearInterval(this.periodic)
    this.timed = this.timer = this.periodic = null
    await this.running?.catch(() => {})
    await this.followUp?.catch(() => {})
  }

  private async runOnce(reason: string): Promise<BuildOutcome> {
    await this.prepare().catch((e) => console.error('before the site build:', e))
    const started = new Date()
    const name = `build-${started.getTime()}-${process.pid}`
    const outDir = path.join(this.env.siteBuildsDir, name)
    const child = Bun.spawn(this.command, {
      cwd: SITE_ROOT,
      env: { ...process.env, DATABASE_PATH: path.resolve(this.env.databasePath), SITE_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
    const duration_ms = Date.now() - started.getTime()
    const ok = code === 0 && existsSync(path.join(outDir, 'index.html'))
    const error = ok
      ? null
      : (err || out).trim().split('\n').slice(-8).join('\n').slice(0, 2000) ||
        `astro build exited with ${code} and wrote no index.html to ${outDir}`
    if (ok) {
      this.swapIn(name)
      await this.scheduleNextChange()
    } else rmSync(outDir, { recursive: true, force: true })
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('site_builds')
        .values({ started_at: started.toISOString(), finished_at: new Date().toISOString(), duration_ms, ok: ok ? 1 : 0, reason, error })
        .execute()
      if (!ok) await record(trx, 'system', 'site.build', `Site build failed (${reason}); the last good site stays up: ${error}`)
    })
    return { ok, duration_ms, error }
  }

  private async scheduleNextChange(): Promise<void> {
    if (this.timed) clearTimeout(this.timed)
    const at = await this.nextChange()
    // setTimeout holds at most about 24 days; the periodic rebuild covers anything further out.
    if (at !== null && at - Date.now() < 2 ** 31 - 1)
      this.timed = setTimeout(() => this.request('announcement window'), Math.max(0, at - Date.now()) + 1000)
  }

  /** Points `current` at the new build with one rename, then removes builds older than the previous one. */
  private swapIn(name: string): void {
    const dir = this.env.siteBuildsDir
    const temp = path.join(dir, `current.${process.pid}.tmp`)
    rmSync(temp, { force: true })
    symlinkSync(name, temp)
    renameSync(temp, path.join(dir, 'current'))
    this.served = path.join(dir, name)
    const builds = readdirSync(dir)
      .filter((f) => f.startsWith('build-'))
      .sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1]))
    for (const old of builds.slice(0, -KEEP_BUILDS)) rmSync(path.join(dir, old), { recursive: true, force: true })
  }
}
