// Backups carry the files folder (FILES_DIR): beside `site-….db`, a folder `site-….files` with every blob, linked
// (blobs never change under their id) or copied, checked against the backed-up database's own rows, then renamed.
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { readAll } from './copy.ts'

/** The files folder of a database backup: `site-2026-11-24T090012Z.db` → `site-2026-11-24T090012Z.files`. */
export const filesBackupOf = (databaseBackup: string) => `${databaseBackup.replace(/\.db$/, '')}.files`

/** Every regular file under `dir`, as paths relative to it; blobs still being written (`.…partial`) are not. */
function blobsUnder(dir: string, prefix = ''): string[] {
  let entries
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    if (entry.name.startsWith('.')) return []
    const relative = path.join(prefix, entry.name)
    return entry.isDirectory() ? blobsUnder(dir, relative) : entry.isFile() ? [relative] : []
  })
}

/** Links (or, across disks, copies) into `target` each blob of `source` it does not hold yet; answers how many it added. */
export function mirrorBlobs(source: string, target: string): number {
  let added = 0
  for (const blob of blobsUnder(source)) {
    const to = path.join(target, blob)
    if (existsSync(to)) continue
    mkdirSync(path.dirname(to), { recursive: true })
    try {
      linkSync(path.join(source, blob), to)
    } catch (error) {
      // Gone since it was listed (a file deleted meanwhile): its row is gone from the database copy too.
      if ((error as { code?: string }).code === 'ENOENT') continue
      copyFileSync(path.join(source, blob), to)
    }
    added++
  }
  return added
}

/**
 * What is wrong with a files backup against the database backup beside it: every blob its `files` rows name must be
 * there with the SHA-256 the row recorded. Null when all are; a database from before files were kept has none to check.
 */
export async function checkFilesBackup(databaseFile: string, filesDir: string): Promise<string | null> {
  const copy = new Database(databaseFile, { readonly: true })
  let rows: { id: string; sha256: string; variants: string | null }[] = []
  try {
    if (readAll(copy, "select 1 from sqlite_master where type = 'table' and name = 'files'").length)
      rows = readAll(copy, 'select id, sha256, variants from files')
  } finally {
    copy.close()
  }
  for (const row of rows) {
    const sizes: { name: string; sha256: string }[] = row.variants ? JSON.parse(row.variants) : [{ name: 'original', sha256: row.sha256 }]
    for (const size of sizes) {
      const blob = Bun.file(path.join(filesDir, 'files', row.id, size.name))
      if (!(await blob.exists())) return `file ${row.id} (${size.name}) is missing from ${path.basename(filesDir)}`
      const hash = new Bun.CryptoHasher('sha256').update(await blob.arrayBuffer()).digest('hex')
      if (hash !== size.sha256) return `file ${row.id} (${size.name}) does not match its recorded SHA-256`
    }
  }
  return null
}

/**
 * Takes a database backup with its files: the blobs first, then the database (`copyDatabase`), then the blobs added
 * meanwhile, so every row the copy holds has its blob; the folder is checked against that copy and only then given
 * its name. On any failure neither the database copy nor the folder is left. Answers the database copy's size, and
 * how many blobs and bytes the folder holds.
 */
export async function backupWithFiles(
  sourceFiles: string,
  target: string,
  copyDatabase: () => Promise<number>,
): Promise<{ bytes: number; files: number; file_bytes: number }> {
  const folder = filesBackupOf(target)
  const partial = path.join(path.dirname(folder), `.${path.basename(folder)}.partial`)
  if (existsSync(folder)) throw new Error(`${folder} exists already`)
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(partial, { recursive: true })
  let copied = false
  try {
    mirrorBlobs(sourceFiles, partial)
    const bytes = await copyDatabase()
    copied = true
    mirrorBlobs(sourceFiles, partial)
    const problem = await checkFilesBackup(target, partial)
    if (problem) throw new Error(`the files copy failed its check and was removed: ${problem}`)
    renameSync(partial, folder)
    const blobs = blobsUnder(folder)
    return { bytes, files: blobs.length, file_bytes: blobs.reduce((n, b) => n + statSync(path.join(folder, b)).size, 0) }
  } catch (error) {
    if (copied) rmSync(target, { force: true })
    throw error
  } finally {
    rmSync(partial, { recursive: true, force: true })
  }
}

/**
 * Puts a backup's files folder in place of FILES_DIR: copied beside it under a temporary name, then the current
 * folder moved aside as `<FILES_DIR>.replaced-<time>` and the copy renamed in. Null when the backup has no files
 * folder (one taken before files were kept): FILES_DIR is left as it is. Answers where the replaced folder went.
 */
export function restoreFiles(databaseBackup: string, filesDir: string, stamp: string): { kept: string | null } | null {
  const folder = filesBackupOf(databaseBackup)
  if (!existsSync(folder)) return null
  const incoming = `${filesDir}.restoring`
  rmSync(incoming, { recursive: true, force: true })
  mkdirSync(incoming, { recursive: true })
  for (const blob of blobsUnder(folder)) {
    mkdirSync(path.dirname(path.join(incoming, blob)), { recursive: true })
    copyFileSync(path.join(folder, blob), path.join(incoming, blob))
  }
  let kept: string | null = null
  if (existsSync(filesDir)) {
    kept = `${filesDir}.replaced-${stamp}`
    for (let n = 2; existsSync(kept); n++) kept = `${filesDir}.replaced-${stamp}-${n}`
    renameSync(filesDir, kept)
  }
  renameSync(incoming, filesDir)
  return { kept }
}
