// Uploaded files: their shape, uploading one (type from the bytes, caps, images made safe), listing and deleting.
import { createHash } from 'node:crypto'
import { occurrenceOf } from '../attendance/occurrence.ts'
import type { Caller } from '../auth/credential.ts'
import { assertLeadsSlug } from '../auth/led-units.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, write } from '../db/write.ts'
import { HttpError, notFound, unprocessable } from '../errors.ts'
import { decodeCursor, encodeCursor, NextCursor, PAGE, PageQuery, pageOf } from '../http/paging.ts'
import { Instant, Nullable, OneOf, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { MAX_PIXELS, TooManyPixels, UnreadableImage, type Variant, webSizes } from './images.ts'
import { FileStore, newBlobId } from './store.ts'
import { FILE_UNITS, FILE_VISIBILITIES, type FileRow } from './tables.ts'
import { sniff } from './types.ts'

export const MB = 1024 * 1024
export const GB = 1024 * MB

const EXAMPLE = {
  id: 'q3Vx0b2T9kYw1mZc8RrLdA',
  name: 'permission-slip.pdf',
  mime: 'application/pdf',
  bytes: 84213,
  unit: 'troop',
  event_uid: null,
  visibility: 'members',
  url: '/files/q3Vx0b2T9kYw1mZc8RrLdA/permission-slip.pdf',
  width: null,
  height: null,
  sizes: [],
  created_at: '2026-11-20T17:55:02.000Z',
  created_by: 'akela@example.org',
}

const Size = t.Object(
  {
    url: t.String({ description: 'Where this size is served' }),
    mime: t.String({ examples: ['image/webp'] }),
    width: t.Integer(),
    height: t.Integer(),
  },
  { additionalProperties: false },
)

export const FileView = t.Object(
  {
    id: t.String({ description: 'Random; the first segment of the file’s address' }),
    name: t.String({ description: 'The download name; its extension follows the type read from the content' }),
    mime: t.String({ description: 'The type read from the content (an image is served as JPEG, or PNG when it has transparency)' }),
    bytes: t.Integer({ description: 'Size of what `url` serves' }),
    unit: OneOf(FILE_UNITS),
    event_uid: Nullable(t.String()),
    visibility: OneOf(FILE_VISIBILITIES, { description: 'public: anyone; members: signed-in members and leaders of the unit' }),
    url: t.String({ description: 'Where it is served: /files/{id}/{name}' }),
    width: Nullable(t.Integer({ description: 'An image’s width in pixels (upright, at its widest size)' })),
    height: Nullable(t.Integer()),
    sizes: t.Array(Size, { description: 'An image’s web sizes, narrowest first, each as WebP then JPEG/PNG; empty for other files' }),
    created_at: Instant,
    created_by: t.String({ description: 'Who uploaded it, as the action log names them' }),
  },
  { $id: 'File', additionalProperties: false, examples: [EXAMPLE] },
)

export const FileList = t.Object(
  { files: t.Array(FileView, { description: 'Newest first' }), next_cursor: NextCursor },
  { additionalProperties: false, examples: [{ files: [EXAMPLE], next_cursor: null }] },
)

export const FileListQuery = t.Object(
  {
    unit: t.Optional(OneOf(FILE_UNITS, { description: 'Only files of this unit' })),
    event_uid: t.Optional(t.String({ minLength: 1, maxLength: 300, description: 'Only files of this event' })),
    ...PageQuery,
  },
  { additionalProperties: false },
)

export const FileIdParams = t.Object({ id: t.String({ maxLength: 40, description: 'The file’s id', examples: [EXAMPLE.id] }) })

/** The fields sent beside the file in the multipart body. */
export const UploadFields = t.Object(
  {
    unit: OneOf(FILE_UNITS, { description: 'Whose file it is: the pack, the troop, or both' }),
    visibility: OneOf(FILE_VISIBILITIES, {
      description: 'public: anyone with the link; members: signed-in families and leaders of the unit',
    }),
    event_uid: t.Optional(t.String({ minLength: 1, maxLength: 300, description: 'The calendar event it belongs to (a packing list)' })),
  },
  { additionalProperties: false },
)

export interface StoredSize extends Omit<Variant, 'bytes'> {
  bytes: number
  sha256: string
}

export const sizesOf = (row: Pick<FileRow, 'variants'>): StoredSize[] => (row.variants ? JSON.parse(row.variants) : [])

export const fileUrl = (row: Pick<FileRow, 'id' | 'name'>) => `/files/${row.id}/${encodeURIComponent(row.name)}`

export const fileView = (row: FileRow) => ({
  id: row.id,
  name: row.name,
  mime: row.mime,
  bytes: row.bytes,
  unit: row.unit,
  event_uid: row.event_uid,
  visibility: row.visibility,
  url: fileUrl(row),
  width: row.width,
  height: row.height,
  sizes: sizesOf(row).map((s) => ({ url: `/files/${row.id}/sizes/${s.name}`, mime: s.mime, width: s.width, height: s.height })),
  created_at: row.created_at,
  created_by: row.created_by,
})

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** A download name of letters, digits, dots, hyphens and underscores, ending in the extension of what it is. */
export function safeName(sent: string, ext: string): string {
  const base = (sent.split(/[\\/]/).pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 80)
  return `${base || 'file'}.${ext}`
}

export interface Upload {
  name: string
  bytes: Uint8Array
  fields: typeof UploadFields.static
}

/** An image refused before it is decoded: its header claims more pixels than MAX_PIXELS (a decompression bomb, or a huge scan). */
export const tooManyPixels = () =>
  unprocessable(
    `file: this image is too large to open: it has more than ${MAX_PIXELS / 1_000_000} million pixels. Save it at a smaller size (a photo of 4,000 × 3,000 is plenty) and upload it again.`,
    'image_too_large',
    'file',
  )

/** The bytes to keep for an upload: an image's web sizes (never its original), or the file as sent. */
async function blobsOf(bytes: Uint8Array, type: { image: boolean; mime: string }) {
  if (!type.image) return { served: bytes, width: null, height: null, sizes: [] as (Variant & { sha256: string })[] }
  let made
  try {
    made = await webSizes(bytes, type.mime)
  } catch (error) {
    if (error instanceof TooManyPixels) throw tooManyPixels()
    if (!(error instanceof UnreadableImage)) throw error
    throw new HttpError(422, 'This image could not be read: it may be damaged or cut off. Save it again as a JPEG or PNG and upload it.', {
      code: 'image_unreadable',
    })
  }
  const sizes = made.variants.map((v) => ({ ...v, sha256: sha256(v.bytes) }))
  return { served: sizes[sizes.length - 1].bytes, width: made.width, height: made.height, sizes }
}

/** POST /api/admin/files: checks the caller's unit, the type and both caps, keeps the blobs, then the row and its log entry. */
export async function uploadFile(db: Db, store: FileStore, caller: Caller, upload: Upload) {
  assertLeadsSlug(caller, upload.fields.unit, 'This file')
  // An event the calendar's copy holds (a one-time event's uid, or `<uid>#<date>` for a meeting), as money entries ask.
  const eventUid = upload.fields.event_uid
  if (eventUid !== undefined && !(await occurrenceOf(db, eventUid))) throw unprocessable(`event_uid: no event ${eventUid}`)
  const maxMb = await getSetting(db, 'files.max_mb')
  if (upload.bytes.byteLength > maxMb * MB) throw tooLarge(maxMb)
  const type = await sniff(upload.bytes, upload.name)
  if (!type.ok)
    throw new HttpError(
      415,
      type.reason === 'markup'
        ? 'Web pages and SVG drawings cannot be uploaded: a browser would run what is inside them. Upload a PDF, or the image as PNG or JPEG.'
        : 'This kind of file cannot be uploaded. Upload a PDF, a photo (JPEG, PNG, WebP, HEIC), a text file, or an office document (Word, Excel, PowerPoint, OpenDocument).',
      { code: type.reason === 'markup' ? 'markup_refused' : 'type_refused' },
    )
  const kept = await blobsOf(upload.bytes, type)
  let total = kept.sizes.length ? 0 : kept.served.byteLength
  for (const size of kept.sizes) total += size.bytes.byteLength
  const capGb = await getSetting(db, 'files.total_gb')
  if (store.usage() + total > capGb * GB)
    throw new HttpError(
      507,
      `There is no room for this file: uploaded files may use ${capGb} GB (files.total_gb) and that is nearly all used. Delete files that are no longer needed, or ask an admin to raise the limit.`,
      {
        code: 'files_full',
      },
    )
  const mime = type.image ? kept.sizes[kept.sizes.length - 1].mime : type.mime
  const ext = type.image ? (mime === 'image/png' ? 'png' : 'jpg') : type.ext
  const id = newBlobId()
  try {
    if (kept.sizes.length) for (const size of kept.sizes) await store.put('files', id, size.name, size.bytes)
    else await store.put('files', id, 'original', kept.served)
    return await write(db, async (trx) => {
      const row: FileRow = {
        id,
        name: safeName(upload.name, ext),
        mime,
        bytes: kept.served.byteLength,
        sha256: sha256(kept.served),
        unit: upload.fields.unit,
        event_uid: upload.fields.event_uid ?? null,
        visibility: upload.fields.visibility,
        width: kept.width,
        height: kept.height,
        variants: kept.sizes.length ? JSON.stringify(kept.sizes.map(({ bytes, ...s }) => ({ ...s, bytes: bytes.byteLength }))) : null,
        created_at: new Date().toISOString(),
        created_by: caller.actor,
      }
      await trx.insertInto('files').values(row).execute()
      await record(trx, caller.actor, 'files.upload', `${row.name} (${row.visibility}, ${row.unit})`)
      return fileView(row)
    })
  } catch (error) {
    store.remove('files', id)
    throw error
  }
}

export const tooLarge = (maxMb: number) =>
  new HttpError(
    413,
    `This file is larger than ${maxMb} MB, the most one file may be (files.max_mb). Make it smaller (a PDF at a lower quality, a photo at a smaller size) and try again.`,
    {
      code: 'file_too_large',
    },
  )

/** A cursor's position: the last file's creation time and id (newest first). */
const Position = t.Tuple([t.String(), t.String()])

export async function listFiles(db: Executor, query: typeof FileListQuery.static) {
  const limit = query.limit ?? PAGE.default
  const after = query.cursor ? decodeCursor('files', query, query.cursor, Position) : undefined
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .$if(query.unit !== undefined, (q) => q.where('unit', '=', query.unit!))
    .$if(query.event_uid !== undefined, (q) => q.where('event_uid', '=', query.event_uid!))
    .$if(after !== undefined, (q) =>
      q.where((eb) => eb.or([eb('created_at', '<', after![0]), eb.and([eb('created_at', '=', after![0]), eb('id', '<', after![1])])])),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  const page = pageOf(rows, limit)
  const last = page.rows.at(-1)
  return {
    files: page.rows.map(fileView),
    next_cursor: page.more && last ? encodeCursor('files', query, [last.created_at, last.id]) : null,
  }
}

export const findFile = (db: Executor, id: string) => db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()

export async function getFile(db: Executor, id: string) {
  const row = await findFile(db, id)
  if (!row) throw notFound('No such file')
  return fileView(row)
}

/** DELETE /api/admin/files/:id: the row and its log entry, then its blobs; a leader deletes only their units' files. */
export async function deleteFile(db: Db, store: FileStore, caller: Caller, id: string) {
  const row = await findFile(db, id)
  if (!row) throw notFound('No such file')
  assertLeadsSlug(caller, row.unit, 'This file')
  const view = await write(db, async (trx) => {
    await trx.deleteFrom('files').where('id', '=', id).execute()
    await record(trx, caller.actor, 'files.delete', row.name)
    return fileView(row)
  })
  store.remove('files', id)
  return view
}
