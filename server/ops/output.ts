// Log lines to stdout in batches: lines gather in memory and go out in one write at most every 50 ms, and a
// reader that stops reading (a stuck pipe) costs a bounded backlog and a count of dropped lines, never a stall.
import type { FileSink } from 'bun'

const FLUSH_DELAY_MS = 50
/** Characters waiting for a slow reader before new lines are dropped (and counted). */
const MAX_BACKLOG = 4 * 1024 * 1024

export class BufferedOutput {
  private buffer = ''
  private timer: Timer | null = null
  /** The sink still holds an earlier batch its reader has not taken yet. */
  private draining: Promise<unknown> | null = null
  private dropped = 0

  constructor(
    private readonly out: FileSink = Bun.stdout.writer(),
    /** The line that reports dropped lines, in the log's format. */
    private readonly droppedLine: (count: number) => string = (n) => `${n} log lines dropped: the log reader is not keeping up`,
  ) {}

  /** Queues one line (without its newline). */
  readonly write = (line: string): void => {
    if (this.buffer.length > MAX_BACKLOG) {
      this.dropped++
      return
    }
    this.buffer += line + '\n'
    if (!this.timer && !this.draining) {
      this.timer = setTimeout(() => this.send(), FLUSH_DELAY_MS)
      this.timer.unref()
    }
  }

  /** Hands the batch to stdout; while the reader lags, the next batch waits here. */
  private send(): void {
    this.timer = null
    if (this.draining || !this.buffer) return
    if (this.dropped) {
      this.buffer += this.droppedLine(this.dropped) + '\n'
      this.dropped = 0
    }
    this.out.write(this.buffer)
    this.buffer = ''
    const written = this.out.flush()
    if (written instanceof Promise)
      this.draining = written.then(
        () => {
          this.draining = null
          if (this.buffer) this.send()
        },
        () => (this.draining = null),
      )
  }

  /** Writes what is queued and waits (at most `ms`) for the reader to take it: before the process exits. */
  async flush(ms = 1000): Promise<void> {
    const deadline = Date.now() + ms
    if (this.timer) clearTimeout(this.timer)
    this.send()
    while (this.draining && Date.now() < deadline) await Promise.race([this.draining, Bun.sleep(Math.max(1, deadline - Date.now()))])
  }
}
