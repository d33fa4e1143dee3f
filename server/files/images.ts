// Images made safe and light: upright, every metadata block dropped, web sizes in WebP with a JPEG (or PNG) fallback.
import sharp, { type OutputInfo } from 'sharp'

/** The widths pages ask for (phone, tablet, desktop); an image is never made wider than it came. */
export const WEB_WIDTHS = [480, 960, 1600] as const

/** Image types an upload may carry, as read from the bytes. */
export const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'])

export interface Variant {
  /** The blob name: `w960.webp`, `w960.jpg`, `w480.png`. */
  name: string
  mime: 'image/webp' | 'image/jpeg' | 'image/png'
  width: number
  height: number
  bytes: Uint8Array
}

export interface WebImage {
  /** The upright size of the largest variant. */
  width: number
  height: number
  /** Per width, the WebP then its fallback, narrowest first. */
  variants: Variant[]
}

/** Thrown when the bytes claim an image type the image library cannot decode (an HEVC HEIC without a decoder, a cut-off file). */
export class UnreadableImage extends Error {}

/** The widths to make for an image `width` px wide upright: the standard ones below it, then its own when narrower than the widest. */
export function widthsFor(width: number): number[] {
  const top = Math.min(width, WEB_WIDTHS[WEB_WIDTHS.length - 1])
  return [...WEB_WIDTHS.filter((w) => w < top), top]
}

/**
 * Decodes once, turns the pixels upright by their EXIF orientation (`.rotate()`), and encodes every width fresh.
 * sharp writes no metadata unless asked (`withMetadata`/`keepExif` are never called), so EXIF, GPS, XMP, IPTC,
 * camera serials and embedded thumbnails never reach an output; the colour profile is converted to sRGB.
 * The fallback is PNG for an image with transparency (a logo), JPEG otherwise.
 */
export async function webSizes(bytes: Uint8Array): Promise<WebImage> {
  let upright: { data: Buffer; info: OutputInfo }
  let hasAlpha: boolean
  try {
    const meta = await sharp(bytes, { failOn: 'error' }).metadata()
    hasAlpha = Boolean(meta.hasAlpha)
    upright = await sharp(bytes, { failOn: 'error', limitInputPixels: 100_000_000 })
      .rotate()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true })
  } catch (error) {
    throw new UnreadableImage(error instanceof Error ? error.message : String(error))
  }
  const { width, height, channels } = upright.info
  const raw = { raw: { width, height, channels } }
  const variants: Variant[] = []
  for (const w of widthsFor(width)) {
    const resized = () => sharp(upright.data, raw).resize({ width: w, withoutEnlargement: true })
    const webp = await resized().webp({ quality: 80 }).toBuffer({ resolveWithObject: true })
    variants.push({ name: `w${w}.webp`, mime: 'image/webp', width: webp.info.width, height: webp.info.height, bytes: webp.data })
    const fallback = hasAlpha
      ? await resized().png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true })
      : await resized().flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }).toBuffer({ resolveWithObject: true })
    variants.push({
      name: `w${w}.${hasAlpha ? 'png' : 'jpg'}`,
      mime: hasAlpha ? 'image/png' : 'image/jpeg',
      width: fallback.info.width,
      height: fallback.info.height,
      bytes: fallback.data,
    })
  }
  const widest = variants[variants.length - 1]
  return { width: widest.width, height: widest.height, variants }
}
