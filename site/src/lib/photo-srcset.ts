// The `srcset` of an event photo's web sizes of one type (WebP, or the JPEG fallback): for the albums the admin and
// family pages draw, and the public Photos page built ahead of time. No DOM here, so the site build can use it.
export const srcsetOf = (photo: { sizes: { url: string; type: string; width: number }[] }, type: string) =>
  photo.sizes
    .filter((z) => z.type === type)
    .map((z) => `${z.url} ${z.width}w`)
    .join(', ')
