// An event photo as a <picture>: WebP sizes with the JPEG ones as fallback, its width and height set so nothing moves
// when it arrives, and `sizes` saying how wide it shows (the browser picks the smallest size that fills it).
import type { AnswerOf } from '#server/routes.ts'
import { h, type Route } from './admin.ts'
import { srcsetOf } from './photo-srcset.ts'

export type PhotoView = AnswerOf<Route<'GET /api/admin/calendar/{uid}/photos'>>['photos'][number]

export function photoPicture(photo: PhotoView, alt: string, sizes = '(min-width: 40rem) 18rem, 100vw') {
  const fallback = photo.sizes.find((z) => z.url === photo.url)!
  return h(
    'picture',
    {},
    h('source', { type: 'image/webp', srcset: srcsetOf(photo, 'image/webp'), sizes }),
    h('img', {
      src: photo.url,
      srcset: srcsetOf(photo, fallback.type),
      sizes,
      alt,
      width: String(photo.width),
      height: String(photo.height),
      loading: 'lazy',
      decoding: 'async',
    }),
  )
}

export const SHOWN_WORDS: Record<PhotoView['shown_to'], string> = {
  leaders: 'Leaders only',
  families: 'Families of the unit',
  everyone: 'Everyone (public)',
}
