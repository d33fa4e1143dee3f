// GET/POST /api/admin/files: the uploaded files, newest first; upload one (multipart).
import { FileStore } from '#server/files/store.ts'
import { FileList, FileListQuery, FileView, listFiles, uploadFile } from '#server/files/files.ts'
import { readUpload, uploadFingerprint } from '#server/files/upload.ts'
import { nextLink } from '#server/http/paging.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('pages:write', 'List uploaded files', {
  operationId: 'listFiles',
  description: 'Every uploaded file, newest first, of a unit or an event when asked; paged with `limit` and `cursor`.',
  query: FileListQuery,
  responses: ok(FileList, 'One page of files', { 422: 'A cursor this list did not give' }),
  async handler({ db, query, request, set }) {
    const list = await listFiles(db, query)
    Object.assign(set.headers, nextLink(request, list.next_cursor))
    return list
  },
})

export const POST = defineRoute('pages:write', 'Upload a file', {
  operationId: 'uploadFile',
  description:
    'A form upload (multipart/form-data) with the parts `file`, `unit` (pack, troop or both), `visibility` (public or members) and, optionally, `event_uid`. ' +
    'The type is read from the content, never the name: PDF, JPEG, PNG, WebP, HEIC, plain text and office documents are taken; SVG and HTML are refused. ' +
    'An image loses all its metadata (EXIF, GPS, camera serials) and is kept only as web sizes about 480, 960 and 1600 px wide (WebP, and JPEG or PNG). ' +
    'One file may be at most `files.max_mb` MB (413), and all files together at most `files.total_gb` GB (507).',
  publishes: true,
  retryFingerprint: uploadFingerprint,
  responses: created(FileView, 'The file as kept, with where it is served', {
    400: 'A broken multipart body',
    403: { description: 'A unit the caller does not lead', codes: ['unit_out_of_scope'] },
    413: { description: 'The file is larger than files.max_mb', codes: ['file_too_large'] },
    415: {
      description: 'Not a multipart upload, SVG or HTML, or a type that is not taken',
      codes: ['multipart_required', 'markup_refused', 'type_refused'],
    },
    422: {
      description:
        'No file part, an empty file, a bad unit or visibility, an `event_uid` naming no event in the calendar, an image that cannot be read, or one of more than 100 million pixels',
      codes: ['image_unreadable', 'image_too_large', 'required', 'empty'],
    },
    507: {
      description: 'All files together would pass files.total_gb, or the disk holding the database is full',
      codes: ['files_full'],
    },
  }),
  async handler({ db, env, caller, request }) {
    return uploadFile(db, new FileStore(env.filesDir), caller, await readUpload(db, request))
  },
})
