// One Bun Worker per script, started on first use and asked by message: the catalog's heavy work (reading, checking
// and writing a season file; building and asking the search index) runs on it, so the service's own thread keeps
// answering requests meanwhile.

import { existsSync, readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** How much nicer than the service's thread a worker runs. */
const WORKER_NICENESS = 10
/** The longest anything waits for an ended worker's thread to exit. */
const EXIT_WAIT_MS = 2000
/** The message id of a worker's first message: its thread's id. */
const THREAD_ID = 0

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

export interface WorkerReply {
  id: number
  value?: unknown
  error?: string
}

/** Bun's Worker can stop keeping the process alive, which the DOM's type does not say. */
type BunWorker = Worker & { ref(): void; unref(): void }

export class WorkerClient {
  private worker: BunWorker | null = null
  private pending = new Map<number, Pending>()
  private ids = 0

  private idle: Timer | null = null
  /** Resolves once the last worker started has exited: its thread and heap are gone. */
  private exited: Promise<void> = Promise.resolve()
  /** Closed for good: asks fail rather than start a worker. */
  private retired = false

  /**
   * With `idleMs`, the worker ends after that long without an ask (its heap handed back) and starts again when asked.
   * With `after`, no worker starts before it resolves (a worker this one replaces has exited).
   */
  constructor(
    private script: URL,
    private options: { idleMs?: number; after?: Promise<void> } = {},
  ) {}

  /**
   * Asks the worker to close what it holds open (its database connection), then ends it; after `waitMs` it ends
   * anyway: a worker busy building an index the next version replaces is not kept alive beside the next one.
   * Resolves once the worker has exited.
   */
  async close(waitMs = 100): Promise<void> {
    if (this.worker) await Promise.race([this.ask({ kind: 'close' }).catch(() => {}), Bun.sleep(waitMs)])
    this.retired = true
    // A worker this one replaced may still be ending: what waits for this one waits for that too.
    await Promise.all([this.options.after, this.stop()])
  }

  /** Ends the worker (what it was asked fails); resolves once it has exited. */
  stop(): Promise<void> {
    const worker = this.worker
    if (worker) {
      this.fail(worker, new Error('catalog worker ended'))
      worker.terminate()
    }
    // Bounded: a worker that never says it exited does not hold up what waits for it for long.
    return Promise.race([this.exited, new Promise<void>((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())])
  }

  /** Ends the worker if it is idle (nothing asked of it is waiting); resolves once no worker of this client runs. */
  stopIdle(): Promise<void> {
    return this.pending.size ? Promise.resolve() : this.stop()
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
    if (this.retired) return Promise.reject(new Error('catalog worker ended'))
    const after = this.options.after
    if (after) return after.then(() => ((this.options.after = undefined), this.ask<T>(message)))
    const worker = this.start()
    if (this.idle) clearTimeout(this.idle)
    this.idle = null
    const id = ++this.ids
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      // Only waiting asks keep the process alive: an idle worker never holds up a stop.
      if (this.pending.size === 1) worker.ref()
      worker.postMessage({ ...message, id })
    })
  }

  private start(): BunWorker {
    if (this.worker) return this.worker
    // JavaScriptCore's small heap: collected sooner as it grows, so a build's garbage raises the process's memory less.
    const worker = new Worker(this.script, { smol: true }) as BunWorker
    worker.unref()
    let thread = 0
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const { id, value, error } = event.data
      if (id === THREAD_ID) return void (thread = value as number)
      const waiting = this.pending.get(id)
      if (!waiting) return
      this.pending.delete(id)
      if (!this.pending.size) {
        worker.unref()
        if (this.options.idleMs !== undefined) {
          this.idle = setTimeout(() => this.stop(), this.options.idleMs)
          this.idle.unref()
        }
      }
      if (error !== undefined) waiting.reject(new Error(error))
      else waiting.resolve(value)
    }
    // A worker that died fails what it was asked; the next ask starts a new one.
    worker.onerror = (event) => this.fail(worker, new Error(`catalog worker failed: ${event.message}`))
    // A worker ends for good only once its thread has exited, the heap it grew handed back with it: its `close` comes
    // while the thread is still tearing its heap down, so on Linux its thread is watched until it is gone.
    const exited = new Promise<void>((resolve) =>
      worker.addEventListener('close', async () => {
        while (thread && existsSync(`/proc/self/task/${thread}`)) await Bun.sleep(2)
        resolve()
      }),
    )
    worker.addEventListener('close', () => this.fail(worker, new Error('catalog worker ended')))
    this.exited = exited
    this.worker = worker
    return worker
  }

  private fail(worker: BunWorker, error: Error) {
    if (this.worker !== worker) return
    this.worker = null
    for (const waiting of this.pending.values()) waiting.reject(error)
    this.pending.clear()
  }
}

/**
 * The worker side: answers each message with `handle`'s value, or its error's message. On Linux the worker's thread
 * runs at a lower priority (niceness is per thread there), so on a busy machine the service's thread goes first.
 */
export function serveMessages(handle: (message: Record<string, unknown>) => unknown | Promise<unknown>) {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop())
    postMessage({ id: THREAD_ID, value: thread } satisfies WorkerReply)
    if (thread) setPriority(thread, Math.min(19, getPriority(thread) + WORKER_NICENESS))
  } catch {
    // Not Linux, or not allowed: the worker runs at the service's priority.
  }
  self.onmessage = async (event: MessageEvent<Record<string, unknown> & { id: number }>) => {
    const { id } = event.data
    try {
      postMessage({ id, value: await handle(event.data) } satisfies WorkerReply)
    } catch (e) {
      postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies WorkerReply)
    }
  }
}
