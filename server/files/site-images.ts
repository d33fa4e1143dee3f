// What the site build reads of the files: the logo and link-preview image (settings site.logo, site.share_image,
// checked when set), and each event's public files for its card.
import type { Executor } from '../db/database.ts'
import { unprocessable } from '../errors.ts'
import { getSetting } from '../settings/registry.ts'
import { findFile, fileUrl, sizesOf } from './files.ts'
import type { FileRow } from './tables.ts'

/** In a setting change's transaction: the file the setting now names must be a public image (null is always fine). */
export async function assertPublicImage(trx: Executor, key: 'site.logo' | 'site.share_image'): Promise<void> {
  const row = await trx.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
  const id = row ? (JSON.parse(row.value) as string | null) : null
  if (id === null) return
  const file = await findFile(trx, id)
  if (!file) throw unprocessable('value: no uploaded file has this id')
  if (!file.mime.startsWith('image/') || file.visibility !== 'public')
    throw unprocessable('value: must be a public image (upload it with visibility public)')
}

export interface SiteImage {
  /** The fallback (JPEG or PNG) at its widest size, as an address on this site. */
  url: string
  width: number
  height: number
  /** The WebP sizes for a srcset ("…/w480.webp 480w, …"). */
  webpSrcset: string
  fallbackSrcset: string
}

/** The address and sizes of a public image file, or null when the file is not one. */
export function publicImage(file: FileRow | undefined): SiteImage | null {
  if (!file || file.visibility !== 'public' || !file.mime.startsWith('image/') || !file.width || !file.height) return null
  const sizes = sizesOf(file)
  const srcset = (webp: boolean) =>
    sizes
      .filter((s) => (s.mime === 'image/webp') === webp)
      .map((s) => `/files/${file.id}/sizes/${s.name} ${s.width}w`)
      .join(', ')
  return { url: fileUrl(file), width: file.width, height: file.height, webpSrcset: srcset(true), fallbackSrcset: srcset(false) }
}

/** A public image named by a setting, with its sizes; null when unset or when the file is gone or no public image. */
export async function siteImage(db: Executor, key: 'site.logo' | 'site.share_image'): Promise<SiteImage | null> {
  const id = await getSetting(db, key)
  return id ? publicImage(await findFile(db, id)) : null
}

/** The ids of files a Markdown text points at (`/files/{id}/…`). */
const FILE_ID = /\/files\/([A-Za-z0-9_-]{22})\//g

/** The public images Markdown texts point at, by file id: what renderPage may show (every other image is dropped). */
export async function imagesIn(db: Executor, ...sources: string[]): Promise<Map<string, SiteImage>> {
  const ids = [...new Set(sources.flatMap((source) => [...source.matchAll(FILE_ID)].map((m) => m[1])))]
  const found = new Map<string, SiteImage>()
  if (!ids.length) return found
  for (const file of await db.selectFrom('files').selectAll().where('id', 'in', ids).execute()) {
    const image = publicImage(file)
    if (image) found.set(file.id, image)
  }
  return found
}

/** Each event's public files, oldest first, for its card on the public calendar (a packing list, a permission slip). */
export async function publicFilesOf(db: Executor, uids: string[]) {
  const rows = uids.length
    ? await db
        .selectFrom('files')
        .selectAll()
        .where('visibility', '=', 'public')
        .where('event_uid', 'in', uids)
        .orderBy('created_at')
        .execute()
    : []
  const byEvent = new Map<string, { name: string; url: string; mime: string; bytes: number }[]>()
  for (const row of rows)
    byEvent.set(row.event_uid!, [
      ...(byEvent.get(row.event_uid!) ?? []),
      { name: row.name, url: fileUrl(row), mime: row.mime, bytes: row.bytes },
    ])
  return byEvent
}
