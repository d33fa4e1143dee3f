// The sha256 of every migration file that reached main, kept in server/db/migrations.sum: a shipped migration is
// never edited, renamed or deleted (databases that ran it keep its name and what it made). `bun tests/schema.ts`
// records new files and refuses to record a changed one.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export const MIGRATIONS_DIR = path.join(import.meta.dir, '..', 'server', 'db', 'migrations')
export const SUMS_FILE = path.join(import.meta.dir, '..', 'server', 'db', 'migrations.sum')

/** Each migration file on disk and the sha256 of its content. */
export function currentSums(): Map<string, string> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort()
  return new Map(
    files.map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(path.join(MIGRATIONS_DIR, f)))
        .digest('hex'),
    ]),
  )
}

/** The recorded sums, `<sha256>  <file>` a line, as sha256sum writes them. */
export function recordedSums(): Map<string, string> {
  const lines = readFileSync(SUMS_FILE, 'utf8').split('\n').filter(Boolean)
  return new Map(lines.map((line) => line.split(/\s+/).reverse() as [string, string]))
}

/** One sentence per recorded migration that was changed, renamed or deleted. */
export function frozenBreaches(): string[] {
  const now = currentSums()
  const breaches: string[] = []
  for (const [file, sum] of recordedSums()) {
    if (!now.has(file)) breaches.push(`${file} was recorded and is gone (renamed or deleted)`)
    else if (now.get(file) !== sum) breaches.push(`${file} changed after it was recorded`)
  }
  return breaches
}

/** Adds the files not yet recorded; throws, changing nothing, when a recorded one changed or is gone. */
export async function recordNewSums(): Promise<string[]> {
  const breaches = frozenBreaches()
  if (breaches.length > 0) throw new Error(`Migrations are frozen: ${breaches.join('; ')}. Write a new migration instead.`)
  const recorded = recordedSums()
  const added = [...currentSums()].filter(([file]) => !recorded.has(file))
  const all = [...recorded, ...added.map(([file, sum]) => [file, sum] as const)].sort(([a], [b]) => a.localeCompare(b))
  await Bun.write(SUMS_FILE, all.map(([file, sum]) => `${sum}  ${file}\n`).join(''))
  return added.map(([file]) => file)
}
