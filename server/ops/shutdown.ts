// Graceful stop on SIGTERM or SIGINT: stop listening, let requests under way finish (10 s at most), stop the
// timers and watchers, finish or cancel background work, close the database, exit 0. A second signal exits at once.
import { errorText, logEvent } from './log.ts'

/** How long requests under way may take to finish before their connections are closed. */
export const REQUEST_GRACE_MS = 10_000
/** Past this, the process exits (1) whatever is still running: a stop never hangs. */
export const SHUTDOWN_DEADLINE_MS = 20_000

export interface StopPlan {
  /** The listening server: `stop(false)` refuses new connections and resolves once requests under way are answered. */
  server: { stop(closeActiveConnections?: boolean): Promise<void> }
  /** Watchers and timers, stopped at once so nothing new starts (the catalog watcher, the calendar poll). */
  timers: (() => void)[]
  /** Work to finish or cancel, each bounded on its own (the site build, a backup under way); run side by side with the requests. */
  work: (() => Promise<unknown>)[]
  /** Last of all: closes the database. */
  close: () => Promise<unknown>
  /** Writes out buffered log lines before the process exits. */
  flushLog?: () => Promise<void>
}

const step = async (name: string, run: () => unknown) => {
  try {
    await run()
  } catch (error) {
    logEvent('service.stop', { ok: false, step: name, message: `While stopping (${name}): ${errorText(error)}` })
  }
}

/** Stops gracefully on the first SIGTERM or SIGINT; `exit` is process.exit (tests of the plan pass their own). */
export function stopOnSignals(plan: StopPlan, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logEvent('service.stop', { signal, message: `${signal} again: exiting now` })
      void plan.flushLog?.()
      exit(1)
      return
    }
    stopping = true
    void stopGracefully(plan, signal, exit)
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
}

async function stopGracefully(plan: StopPlan, signal: string, exit: (code: number) => void) {
  const started = Date.now()
  logEvent('service.stop', { signal, message: `${signal}: stopping (new connections refused; requests under way may finish)` })
  const deadline = setTimeout(() => {
    logEvent('service.stop', { ok: false, message: `Still stopping after ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting now` })
    void plan.flushLog?.().finally(() => exit(1))
  }, SHUTDOWN_DEADLINE_MS)
  for (const stop of plan.timers) await step('timers', stop)
  const requests = async () => {
    const answered = plan.server.stop(false).then(() => true)
    if (await Promise.race([answered, Bun.sleep(REQUEST_GRACE_MS).then(() => false)])) return
    logEvent('service.stop', {
      ok: false,
      message: `Requests still under way after ${REQUEST_GRACE_MS / 1000} s: closing their connections`,
    })
    await plan.server.stop(true)
  }
  await Promise.all([step('requests', requests), ...plan.work.map((work) => step('background work', work))])
  await step('database', plan.close)
  clearTimeout(deadline)
  logEvent('service.stop', { ok: true, duration_ms: Date.now() - started, message: 'Stopped; the database is closed' })
  await plan.flushLog?.()
  exit(0)
}
