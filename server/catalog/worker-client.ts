// One Bun Worker per script, started on first use and asked by message: the catalog's heavy work (reading, checking
// and writing a season file; building and asking the search index) runs on it, so the service's own thread keeps
// answering requests meanwhile.

import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** How much nicer than the service's thread a worker runs. */
const WORKER_NICENESS = 10

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

  /** With `idleMs`, the worker ends after that long without an ask (its heap handed back) and starts again when asked. */
  constructor(
    private script: URL,
    private options: { idleMs?: number } = {},
  ) {}

  /**
   * Asks the worker to close what it holds open (its database connection), then ends it; after `waitMs` it ends
   * anyway: a worker busy building an index the next version replaces is not kept alive beside the next one.
   */
  async close(waitMs = 100): Promise<void> {
    if (!this.worker) return
    await Promise.race([this.ask({ kind: 'close' }).catch(() => {}), Bun.sleep(waitMs)])
    this.stop()
  }

  /** Ends the worker: what it was asked fails. */
  stop(): void {
    const worker = this.worker
    if (!worker) return
    this.fail(worker, new Error('catalog worker ended'))
    worker.terminate()
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
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
    const worker = new Worker(this.script) as BunWorker
    worker.unref()
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const { id, value, error } = event.data
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
    worker.addEventListener('close', () => this.fail(worker, new Error('catalog worker ended')))
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
