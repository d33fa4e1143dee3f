// Which process uses a database file: `<database>.pid` names the running service (pid and start time), so
// `restore` refuses while it runs; a file left by a crashed process names a dead (or reused) pid and is ignored. The
// service also holds an exclusive flock(2) on the database file itself while it runs, so a deleted pid file does not
// let a second service in. SQLite locks with fcntl(2), which flock does not touch: backups and readers still work.
import { dlopen, FFIType } from 'bun:ffi'
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const LOCK_EX = 2
const LOCK_NB = 4
let libc: { flock(fd: number, operation: number): number } | null = null
const flock = (fd: number, operation: number) =>
  (libc ??= dlopen('libc.so.6', { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } }).symbols).flock(fd, operation)

/** Holds an exclusive lock on the database file until released (or the process ends); throws when another holds one. */
function lockFile(databasePath: string): () => void {
  const fd = openSync(databasePath, 'a') // an empty new file is what SQLite makes of a new database too
  if (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd)
    throw new Error(`${databasePath} is in use by another process; stop it first`)
  }
  return () => closeSync(fd)
}

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
  let unlock: () => void
  try {
    unlock = lockFile(databasePath)
  } catch (error) {
    rmSync(file, { force: true })
    throw error
  }
  const release = () => {
    try {
      if (readFileSync(file, 'utf8').trim() === mine) rmSync(file, { force: true })
    } catch {}
    unlock()
    process.off('exit', release)
  }
  process.on('exit', release)
  return release
}
