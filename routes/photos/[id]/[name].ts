// GET /photos/:id/:name: one web size of an event photo, by the album's rule; 404 alike for unknown and not allowed.
import { FileStore } from '#server/files/store.ts'
import { PHOTOS } from '#server/photos/commands.ts'
import { photoSize } from '#server/photos/queries.ts'
import { PhotoParams } from '#server/photos/schemas.ts'
import { signedInCaller } from '#server/photos/signed-in.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

export const GET = defineRoute('public', 'One size of an event photo', {
  operationId: 'getPhoto',
  description:
    'Served to whoever the album shows it to (the session cookie decides): leaders of the event’s units; the families of those units once reviewed and while every tagged scout has photo consent; anyone once a leader marked it public. Everyone else gets 404, the same answer as an unknown photo.',
  params: t.Object({
    id: PhotoParams.properties.id,
    name: Line(40, { description: 'The size, as the album names it: `w960.webp`, `w960.jpg`' }),
  }),
  responses: ok({ media: 'image/*' }, 'The image', { 404: 'No such photo, or not one for you' }),
  async handler(ctx) {
    const { photo, shown, type } = await photoSize(ctx.db, await signedInCaller(ctx, ctx.request), ctx.params.id, ctx.params.name)
    const etag = `"photo-${photo.id}-${ctx.params.name}"`
    // Asked again each time: a photo taken down or hidden stops at once, even in a browser's cache.
    const headers = { etag, 'cache-control': shown === 'everyone' ? 'public, no-cache' : 'private, no-cache', 'content-type': type }
    if (ctx.request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
    return new Response(new FileStore(ctx.env.filesDir).file(PHOTOS, String(photo.id), ctx.params.name), { headers })
  },
})
