// The files table's type (composed into Database by db/database.ts).
import type { Selectable } from 'kysely'

export const FILE_UNITS = ['pack', 'troop', 'both'] as const
export const FILE_VISIBILITIES = ['public', 'members'] as const

export interface FileTable {
  /** 128 random bits, base64url: the first segment of /files/{id}/{name}. */
  id: string
  /** The download name, its extension matching the type read from the bytes. */
  name: string
  mime: string
  /** Bytes of what /files/{id}/{name} serves (for an image, its widest fallback size). */
  bytes: number
  /** SHA-256 (hex) of that blob: the ETag, and what a backup is checked against. */
  sha256: string
  unit: (typeof FILE_UNITS)[number]
  event_uid: string | null
  visibility: (typeof FILE_VISIBILITIES)[number]
  /** For an image: the widest size's pixels, and every size as JSON [{name, mime, width, height, bytes, sha256}]. */
  width: number | null
  height: number | null
  variants: string | null
  created_at: string
  created_by: string
}
export type FileRow = Selectable<FileTable>
