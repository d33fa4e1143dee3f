// Regenerates the Astro site after public-data writes: debounced until a burst of writes goes quiet, one build at a
// time, in a build process at low priority (build.ts: the pages rendered from the compiled site; the process is kept
// for the next build a while, renderer.ts), into a fresh directory that is swapped in atomically; a failed build keeps
// the last good site.
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { record } from '../db/write.ts'
import { errorText, logEvent } from '../ops/log.ts'
import { Renderer } from './renderer.ts'

const BUILD = path.join(import.meta.dir, 'build.ts')
/** How long a build process waits for the next build: a leader's burst of saves reuses one, an idle service holds none. */
const RENDERER_IDLE_MS = 60_000
const WATCHDOG = path.join(import.meta.dir, 'build-watchdog.ts')
/** Builds kept besides the one served, so a request that began on the previous build can still finish. */
const KEEP_BUILDS = 2
/** How long `stop` lets a build under way finish before it ends the build's process. */
export const STOP_GRACE_MS = 10_000

export interface BuildOutcome {
  ok: boolean
  duration_ms: number
  error: string | null
}

/**
 * Builds belong to one database: the folder records whose builds it holds, and a service for another
 * database refuses it instead of pruning that database's served site.
 */
function claimFolder(dir: string, database: string): void {
  const marker = path.join(dir, 'database')
  const owner = existsSync(marker) ? readFileSync(marker, 'utf8').trim() : null
  if (owner === null) writeFileSync(marker, database + '\n')
  else if (owner !== database)
    throw new Error(`${dir} holds the site builds of ${owner}; give ${database} its own folder (SITE_BUILDS_DIR)`)
}

/** A build directory holds a complete site when its 404 page is there (it is written last of the pages we serve). */
/**
 * Astro keeps a build's scratch files in site/.astro whatever its output folder, so two builds at once in one checkout
 * trip over each other's files: the builders of one process (tests, or two databases served together) take turns.
 * Builds of different processes (test files running in parallel) each get their own cache folder (SITE_CACHE_DIR);
 * what they still share in site/.astro are type declarations, which every build writes with the same text.
 */
let astroTurn: Promise<unknown> = Promise.resolve()
function inAstroTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = astroTurn.then(work, work)
  astroTurn = turn.catch(() => {})
  return turn
}

const complete = (dir: string) => existsSync(path.join(dir, '404.html'))

export class SiteBuilder {
  /** The debounced build asked for by `request`, not started yet; it starts at `startsAt` at the latest. */
  private pending: {
    timer: Timer
    startsAt: number
    fire: () => void
    outcome: Promise<BuildOutcome>
    covered: (by: Promise<BuildOutcome>) => void
  } | null = null
  private running: Promise<BuildOutcome> | null = null
  /** The build process, kept between builds for a while (renderer.ts), so stopping can end it. */
  private renderer: Renderer | null = null
  private followUp: Promise<BuildOutcome> | null = null
  private stopped = false
  private periodic: Timer | null = null
  private timed: Timer | null = null
  private served: string | null

  private readonly dir: string
  private debounceMs: number
  private maxWaitMs: number
  private command: string[]
  private idleMs: number
  private nextChange: () => Promise<number | null>
  private prepare: () => Promise<void>

  constructor(
    private db: Db,
    private env: Readonly<Env>,
    options: {
      /** How long the writes must go quiet before a build starts… */
      debounceMs?: number
      /** …but no longer than this after the first of them, so a steady stream of writes still reaches the pages. */
      maxWaitMs?: number
      /** The build command; tests swap in a failing one. */
      command?: string[]
      /** How long the build process is kept for a next build (renderer.ts). */
      idleMs?: number
      /** When the built pages go stale by themselves (an announcement starting or ending), to rebuild then. */
      nextChange?: () => Promise<number | null>
      /** Runs before each build: refreshes copies of outside data (the calendar store). */
      prepare?: () => Promise<void>
    } = {},
  ) {
    this.dir = env.siteBuildsDir
    this.debounceMs = options.debounceMs ?? 300
    this.maxWaitMs = options.maxWaitMs ?? 3000
    this.idleMs = options.idleMs ?? RENDERER_IDLE_MS
    // The build is background work: at a lower priority it takes only the CPU the answers leave.
    const nice = Bun.which('nice')
    // The build process ends itself when the service is gone (build-watchdog.ts); each build has its own output folder.
    const build = [process.execPath, '--preload', WATCHDOG, BUILD, '--serve']
    const niceness = env.siteBuildNiceness ?? 10
    this.command = [...(nice && niceness > 0 ? [nice, '-n', String(niceness)] : []), ...(options.command ?? build)]
    this.nextChange = options.nextChange ?? (async () => null)
    this.prepare = options.prepare ?? (async () => {})
    mkdirSync(this.dir, { recursive: true })
    claimFolder(this.dir, path.resolve(env.databasePath))
    this.served = this.linked()
  }

  /** The complete build `current` points at, or null. */
  private linked(): string | null {
    const link = path.join(this.dir, 'current')
    try {
      const target = path.join(this.dir, readlinkSync(link))
      return complete(target) ? target : null
    } catch {
      return null
    }
  }

  /** The directory being served, or null before the first good build. */
  currentDir(): string | null {
    return this.served
  }

  /**
   * The served build has lost its files (removed by hand or by another process): serve what `current`
   * points at if that is complete, else nothing until a rebuild, which this asks for.
   */
  lost(): string | null {
    this.served = this.linked()
    if (!this.served) this.request('the served build is missing')
    return this.served
  }

  get busy(): boolean {
    return this.running !== null || this.pending !== null
  }

  /**
   * Asks for a rebuild soon: a burst of requests, each within the debounce of the one before, makes one build, which
   * starts once they go quiet or `maxWaitMs` after the first.
   */
  request(reason = 'data changed'): void {
    if (this.stopped) return
    if (this.pending) {
      clearTimeout(this.pending.timer)
      this.pending.timer = setTimeout(this.pending.fire, Math.min(this.debounceMs, this.pending.startsAt - Date.now()))
      return
    }
    let resolve!: (outcome: Promise<BuildOutcome>) => void
    const outcome = new Promise<BuildOutcome>((r) => (resolve = r))
    const fire = () => {
      this.pending = null
      resolve(this.build(reason))
    }
    this.pending = { timer: setTimeout(fire, this.debounceMs), startsAt: Date.now() + this.maxWaitMs, fire, outcome, covered: resolve }
  }

  /** Resolves once no build is asked for or under way: every write made before the call is then on the pages. */
  async settled(): Promise<BuildOutcome | null> {
    let last: BuildOutcome | null = null
    for (let next = this.nextWait(); next; next = this.nextWait()) last = await next
    return last
  }

  private nextWait(): Promise<BuildOutcome> | null {
    return this.pending?.outcome ?? this.followUp ?? this.running
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
    // A build starting now reads every write made so far, so it answers a request still waiting out its debounce.
    if (this.pending) {
      clearTimeout(this.pending.timer)
      this.pending.covered(run)
      this.pending = null
    }
    return run
  }

  /**
   * Stops scheduling and waits for a build under way, so nothing writes after the database closes. A build still
   * running after `graceMs` is ended (its process killed, nothing recorded); stop never waits much longer than that.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopped = true
    for (const t of [this.timed, this.pending?.timer]) if (t) clearTimeout(t)
    if (this.periodic) clearInterval(this.periodic)
    this.pending?.outcome.catch(() => {})
    this.timed = this.periodic = this.pending = null
    const done = async () => {
      await this.running?.catch(() => {})
      await this.followUp?.catch(() => {})
    }
    const within = (ms: number) => Promise.race([done().then(() => true), Bun.sleep(ms).then(() => false)])
    const finished = await within(graceMs)
    // The build process ends with the service: at once when idle, or cut off with the build it still runs.
    await this.renderer?.end({ kill: true })
    if (!finished) await within(2000)
  }

  private async runOnce(reason: string): Promise<BuildOutcome> {
    await this.prepare().catch((e) => logEvent('site.prepare', { ok: false, message: `Before the site build: ${errorText(e)}` }))
    return inAstroTurn(() =>
      // Stopped meanwhile (the service is shutting down): no new build process.
      this.stopped ? Promise.resolve({ ok: false, duration_ms: 0, error: 'the site builder is stopped' }) : this.runBuild(reason),
    )
  }

  private async runBuild(reason: string): Promise<BuildOutcome> {
    const started = new Date()
    const name = `build-${started.getTime()}-${process.pid}`
    const outDir = path.join(this.dir, name)
    mkdirSync(outDir, { recursive: true })
    const renderer = this.renderer?.ready ? this.renderer : this.startRenderer(name, outDir)
    const { built, code, killed, out, err } = await renderer.build(outDir)
    if (!built) await renderer.ended // a renderer that ended has its cache removed before the outcome is told
    const duration_ms = Date.now() - started.getTime()
    if (this.stopped && killed) {
      // Ended by stop(): not a failure of the site, so the last recorded build still says how the pages are.
      rmSync(outDir, { recursive: true, force: true })
      logEvent('site.build', { ok: false, reason, duration_ms, message: 'Site build cancelled: the service is stopping' })
      return { ok: false, duration_ms, error: 'cancelled: the service is stopping' }
    }
    const ok = (built || code === 0) && existsSync(path.join(outDir, 'index.html')) && complete(outDir)
    const error = ok
      ? null
      : (err || out).trim().split('\n').slice(-8).join('\n').slice(0, 2000) ||
        `the site build exited with ${code} and wrote no complete site to ${outDir}`
    if (ok) {
      this.swapIn(name)
      await this.scheduleNextChange()
    } else rmSync(outDir, { recursive: true, force: true })
    // Not write(): a build that worked is the service's own bookkeeping; only a failure goes to the action log.
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('site_builds')
        .values({ started_at: started.toISOString(), finished_at: new Date().toISOString(), duration_ms, ok: ok ? 1 : 0, reason, error })
        .execute()
      if (!ok) await record(trx, 'system', 'site.build', `Site build failed (${reason}); ${this.standing()}: ${error}`)
    })
    logEvent('site.build', {
      ok,
      reason,
      duration_ms,
      message: ok ? `Site built in ${duration_ms} ms` : `Site build failed; ${this.standing()}: ${error}`,
    })
    return { ok, duration_ms, error }
  }

  /**
   * A new build process, started for the build `name` into `outDir` (a command of one build reads both from its
   * environment). Its cache folder, for a compile of the site, is removed when it ends.
   */
  private startRenderer(name: string, outDir: string): Renderer {
    const cacheDir = path.join(this.dir, `cache-${name}`)
    const renderer = new Renderer(
      this.command,
      {
        cwd: this.dir,
        env: {
          ...process.env,
          DATABASE_PATH: path.resolve(this.env.databasePath),
          PUBLIC_BASE_URL: this.env.publicBaseUrl,
          // The pages offer what needs mail only when the service sends it.
          SMTP_URL: this.env.mail?.url ?? '',
          MAIL_FROM: this.env.mail?.from ?? '',
          SITE_OUT_DIR: outDir,
          SITE_CACHE_DIR: cacheDir,
          SITE_BUILD_SERVICE_PID: String(process.pid),
          ASTRO_TELEMETRY_DISABLED: '1',
        },
      },
      this.idleMs,
    )
    void renderer.ended.then(() => {
      rmSync(cacheDir, { recursive: true, force: true })
      if (this.renderer === renderer) this.renderer = null
    })
    this.renderer = renderer
    return renderer
  }

  /** What visitors see after a failed build, in words. */
  private standing(): string {
    return this.served ? 'the last good site stays up' : 'there is no site yet: pages answer 503 until a build succeeds'
  }

  private async scheduleNextChange(): Promise<void> {
    if (this.timed) clearTimeout(this.timed)
    const at = await this.nextChange()
    // setTimeout holds at most about 24 days; the periodic rebuild covers anything further out.
    if (at !== null && at - Date.now() < 2 ** 31 - 1)
      this.timed = setTimeout(() => this.request('announcement window'), Math.max(0, at - Date.now()) + 1000)
  }

  /**
   * Points `current` at the new build with one rename, then removes older builds. It never removes the
   * build `current` points at or the one this process serves, and keeps the newest few besides.
   */
  private swapIn(name: string): void {
    const temp = path.join(this.dir, `current.${process.pid}.tmp`)
    rmSync(temp, { force: true })
    symlinkSync(name, temp)
    renameSync(temp, path.join(this.dir, 'current'))
    this.served = path.join(this.dir, name)
    const keep = new Set([name, path.basename(this.linked() ?? '')])
    const builds = readdirSync(this.dir)
      .filter((f) => f.startsWith('build-'))
      .sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1]))
    for (const f of builds.slice(-KEEP_BUILDS - 1)) keep.add(f)
    for (const old of builds) if (!keep.has(old)) rmSync(path.join(this.dir, old), { recursive: true, force: true })
  }
}
