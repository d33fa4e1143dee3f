// GET/POST /api/admin/calendar/:uid/photos: an event's album as the caller may see it; add a photo to it (multipart).
import { Uid } from '#server/calendar/schemas.ts'
import { FileStore } from '#server/files/store.ts'
import { addPhoto } from '#server/photos/commands.ts'
import { uploadFingerprint } from '#server/files/upload.ts'
import { formFile } from '#server/photos/form-file.ts'
import { album } from '#server/photos/queries.ts'
import { Album, PhotoView } from '#server/photos/schemas.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('any', "An event's album", {
  operationId: 'getAlbum',
  description:
    'The photos the caller may see, oldest first, each with its URL and web sizes: every photo for leaders of the event’s units (with tags and the scouts they may tag); reviewed ones without a scout lacking photo consent for the families of those units; ones a leader marked public for anyone. Others get an empty list.',
  params: Uid,
  responses: ok(Album, 'The album', { 404: 'No such event' }),
  handler: ({ db, caller, params }) => album(db, caller, params.uid),
})

export const POST = defineRoute('account:self', 'Add a photo to an event album', {
  operationId: 'addPhoto',
  description:
    'multipart/form-data with the image in the field `file` (JPEG, PNG, WebP or HEIC, read from its bytes), at most `files.max_mb` MB. Only web sizes of it are kept (480, 960 and 1600 px wide, WebP and JPEG), with every metadata block (EXIF, GPS, camera serials) dropped. Leaders of the event’s units, and families on the event (a confirmed sign-up, or a scout a leader recorded present), may add photos; each waits for a leader’s review before families see it.',
  params: Uid,
  person: true,
  retryFingerprint: uploadFingerprint,
  responses: created(PhotoView, 'The photo as the caller sees it', {
    403: { description: 'Neither a leader of the event’s unit nor a family on it', codes: ['not_on_event'] },
    404: 'No such event',
    400: 'A broken multipart body',
    413: { description: 'The image is larger than files.max_mb', codes: ['file_too_large'] },
    415: { description: 'Not a multipart upload', codes: ['multipart_required'] },
    507: { description: 'Files and photos together would pass files.total_gb', codes: ['files_full'] },
    422: {
      description: 'No file, a file that is not an image this site can read, or one of more than 100 million pixels',
      codes: ['required', 'not_an_image', 'image_unreadable', 'image_too_large'],
    },
  }),
  async handler({ db, env, caller, params, request }) {
    return addPhoto(db, new FileStore(env.filesDir), caller, params.uid, () => formFile(db, request))
  },
})
