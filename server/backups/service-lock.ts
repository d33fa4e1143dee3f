// Which process uses a database file: `<database>.pid` names the running service (pid and start time), so
// `restore` refuses while it runs; a file left by a crashed process names a dead (or reused) pid and is ignored.
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** `<database>.pid`, in the folder as the system resolves it (a symlinked path names the same file). */
export function lockFileOf(databasePath: string): string {
  const dir = path.dirname(path.resolve(databasePath))
  try {
    return path.join(realpathSync(dir), `${path.basename(databasePath)}.pid`)
  } catch {
    return path.join(dir, `${path.basename(databasePath)}.pid`)
  }
}

/** A process's start time in clock ticks since boot (Linux), which tells a reused pid from the one recorded. */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // there, but another user's
  }
}

/** The live process recorded as using the database, or null when none is (no file, or a stale one). */
export function holderOf(databasePath: string): { pid: number } | null {
  let held: { pid?: unknown; started?: unknown }
  try {
    held = JSON.parse(readFileSync(lockFileOf(databasePath), 'utf8'))
  } catch {
    return null
  }
  const pid = Number(held.pid)
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return null
  const started = startTicks(pid)
  if (typeof held.started === 'string' && started !== null && started !== held.started) return null
  return { pid }
}

/**
 * Records this process as the database's user until it exits (or the returned release is called). Throws when
 * a live process holds it already: two services, or a service and a restore, on one file.
 */
export function claimDatabase(databasePath: string): () => void {
  if (databasePath === ':memory:') return () => {}
  const file = lockFileOf(databasePath)
  mkdirSync(path.dirname(file), { recursive: true })
  const mine = JSON.stringify({ pid: process.pid, started: startTicks(process.pid) })
  for (let attempt = 0; ; attempt++) {
    const holder = holderOf(databasePath)
    if (holder) throw new Error(`${databasePath} is in use by another process (pid ${holder.pid}); stop it first`)
    try {
      writeFileSync(file, `${mine}\n`, { flag: 'wx' })
      break
    } catch (error) {
      // A stale file (crashed process): remove it and claim again; losing a second time means someone else won.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
      if (!holderOf(databasePath)) rmSync(file, { force: true })
    }
  }
  const release = () => {
    try {
      if (readFileSync(file, 'utf8').trim() === mine) rmSync(file, { force: true })
    } catch {}
    process.off('exit', release)
  }
  process.on('exit', release)
  return release
}
