// Blobs on disk under one folder (FILES_DIR): `<kind>/<id>/<name>`, each written to a temporary name and renamed.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * Everything under the root is what backups carry: uploaded files, their web sizes, and event photos.
 * A blob is addressed by a kind (`files`, `photos`), an id the database row holds, and a name inside that id's
 * folder (`original`, `w960.webp`); deleting the row deletes the folder. Ids are never reused, so a blob never
 * changes once written and a backup can link it instead of copying.
 */
export class FileStore {
  constructor(readonly root: string) {}

  /** The folder of one id; throws on a kind, id or name that could leave the root. */
  folder(kind: string, id: string): string {
    if (!SAFE.test(kind) || !SAFE.test(id)) throw new Error(`Not a blob address: ${kind}/${id}`)
    return path.join(this.root, kind, id)
  }

  path(kind: string, id: string, name: string): string {
    if (!SAFE.test(name)) throw new Error(`Not a blob name: ${name}`)
    return path.join(this.folder(kind, id), name)
  }

  /** Writes one blob: a crash leaves at most a hidden `.partial` file, never half a blob under its name. */
  async put(kind: string, id: string, name: string, bytes: Uint8Array): Promise<void> {
    const target = this.path(kind, id, name)
    mkdirSync(path.dirname(target), { recursive: true })
    const partial = path.join(path.dirname(target), `.${name}.${crypto.randomUUID()}.partial`)
    try {
      await Bun.write(partial, bytes)
      renameSync(partial, target)
    } catch (error) {
      rmSync(partial, { force: true })
      throw error
    }
  }

  file(kind: string, id: string, name: string) {
    return Bun.file(this.path(kind, id, name))
  }

  async exists(kind: string, id: string, name: string): Promise<boolean> {
    return this.file(kind, id, name).exists()
  }

  /** Removes an id's folder and everything in it; a missing folder is no error. */
  remove(kind: string, id: string): void {
    rmSync(this.folder(kind, id), { recursive: true, force: true })
  }

  /** Bytes used under the root (what the `files.total_gb` cap and /healthz count). */
  usage(): number {
    return diskUse(this.root)
  }
}

const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/

/** Total size of the regular files under a folder; 0 when it does not exist. */
export function diskUse(dir: string): number {
  let total = 0
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) total += diskUse(full)
    else if (entry.isFile()) total += statSync(full).size
  }
  return total
}

/** A new id: 128 random bits, base64url, so members-only files cannot be found by counting. */
export const newBlobId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')
