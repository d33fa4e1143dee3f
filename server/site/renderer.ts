// The site build's process, kept between builds: SiteBuilder hands it one build at a time, the output folder as a line
// on its stdin, and it answers `built <folder>` on stdout (build.ts --serve). A renderer kept warm renders a rebuild
// in about 0.15 CPU-seconds, where a new process took about 1.1 to load the compiled site and the server's modules
// first. A command that does one build and exits (tests swap such commands in) is a renderer of that one build.
import type { Subprocess } from 'bun'

export interface RenderResult {
  /** The process said the build is done, and is ready for the next. */
  built: boolean
  /** The exit code once the process ended during the build (null while it runs on). */
  code: number | null
  /** Ended by a kill (SiteBuilder.stop). */
  killed: boolean
  /** What the process printed during the build. */
  out: string
  err: string
}

export class Renderer {
  private proc: Subprocess<'pipe', 'pipe', 'pipe'>
  private out = ''
  private err = ''
  private reported: { line: string; resolve: () => void } | null = null
  private idle: Timer | null = null
  /** Told to end: it takes no further build. */
  private ending = false
  /** Resolves once the process has ended and all it printed has been read. */
  readonly ended: Promise<void>

  constructor(
    command: string[],
    options: { cwd: string; env: Record<string, string | undefined> },
    /** How long it waits for a next build before it is ended. */
    private idleMs: number,
  ) {
    this.proc = Bun.spawn(command, { ...options, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
    // A service that exits at once (a second signal) takes its build process with it.
    const killOnExit = () => this.proc.kill('SIGKILL')
    process.once('exit', killOnExit)
    const reading = Promise.all([
      this.read(this.proc.stdout, (text) => {
        this.out += text
        if (this.reported && this.out.includes(this.reported.line)) this.reported.resolve()
      }),
      this.read(this.proc.stderr, (text) => (this.err += text)),
    ])
    this.ended = Promise.all([this.proc.exited, reading]).then(() => void process.off('exit', killOnExit))
  }

  /** Whether it can take a build: running, and not told to end. */
  get ready(): boolean {
    return !this.ending && this.proc.exitCode === null && this.proc.signalCode === null
  }

  /** Renders one build into `folder`: resolves once the process says it is built, or has ended. */
  async build(folder: string): Promise<RenderResult> {
    if (this.idle) clearTimeout(this.idle)
    this.out = this.err = ''
    const line = `built ${folder}\n`
    const built = new Promise<boolean>((resolve) => (this.reported = { line, resolve: () => resolve(true) }))
    try {
      this.proc.stdin.write(`${folder}\n`)
      this.proc.stdin.flush()
    } catch {
      // A command of one build may have ended already (it does not read its stdin): its exit tells the outcome.
    }
    const reported = await Promise.race([built, this.ended.then(() => false)])
    this.reported = null
    if (reported) {
      this.idle = setTimeout(() => this.end(), this.idleMs)
      this.idle.unref()
    }
    return { built: reported, code: this.proc.exitCode, killed: this.proc.signalCode === 'SIGKILL', out: this.out, err: this.err }
  }

  /** Ends the process between builds (its stdin closed, it exits); `kill` ends it at once, a build under way too. */
  end({ kill = false } = {}): Promise<void> {
    if (this.idle) clearTimeout(this.idle)
    this.ending = true
    if (kill) this.proc.kill('SIGKILL')
    else
      try {
        this.proc.stdin.end()
      } catch {
        // ended already
      }
    return this.ended
  }

  private async read(stream: ReadableStream<Uint8Array>, add: (text: string) => void): Promise<void> {
    const decoder = new TextDecoder()
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }))
  }
}
