// Images made safe and light: upright, every metadata block dropped, web sizes in WebP with a JPEG (or PNG) fallback.
import sharp, { type OutputInfo, type Sharp } from 'sharp'
import type { HeicJob, HeicResult } from './heic-worker.ts'

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

/** Thrown when the bytes claim an image type the image library cannot decode (a cut-off file, a damaged one). */
export class UnreadableImage extends Error {}

/** Above this many pixels an image is refused before it is decoded: a small file can unpack into gigabytes. */
export const MAX_PIXELS = 100_000_000

/** Thrown for an image whose header claims more than MAX_PIXELS, before any pixel is decoded. */
export class TooManyPixels extends Error {}

/** HEIC and HEIF, as an iPhone sends them: sharp's prebuilt libvips cannot decode HEVC, so libheif (wasm, heic-decode) does. */
const HEIF = new Set(['image/heic', 'image/heif'])

/** A HEIC decoded to RGBA on its own thread (heic-worker.ts); null when libheif cannot read it. */
function decodeHeicOnItsThread(bytes: Uint8Array): Promise<Extract<HeicResult, { data: unknown }> | null> {
  const worker = new Worker(new URL('./heic-worker.ts', import.meta.url).href)
  return new Promise<HeicResult>((resolve) => {
    worker.onmessage = (event: MessageEvent<HeicResult>) => resolve(event.data)
    // libheif aborting on a malformed file is the file's doing: unreadable (422), never a 500.
    worker.onerror = (event) => resolve({ error: event.message })
    worker.postMessage({ bytes, maxPixels: MAX_PIXELS } satisfies HeicJob)
  })
    .then((result) => {
      if ('tooMany' in result) throw new TooManyPixels(`${result.tooMany.width}×${result.tooMany.height}`)
      return 'error' in result ? null : result
    })
    .finally(() => worker.terminate())
}

/**
 * The image ready for sharp, and whether it has transparency. A HEIC is decoded to RGBA pixels by libheif (which
 * turns it upright by its own rotation boxes); its metadata stays behind in the file, as it does with sharp.
 */
async function source(bytes: Uint8Array, mime: string): Promise<{ image: Sharp; hasAlpha: boolean }> {
  // An AV1 HEIF, which libheif's wasm build cannot read, goes on to libvips, which may.
  const heic = HEIF.has(mime) ? await decodeHeicOnItsThread(bytes) : null
  if (heic) {
    const { width, height, data } = heic
    const pixels = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    const hasAlpha = !opaque(pixels)
    const image = sharp(pixels, { raw: { width, height, channels: 4 }, limitInputPixels: MAX_PIXELS })
    return { image: hasAlpha ? image : image.removeAlpha(), hasAlpha }
  }
  let meta
  try {
    meta = await sharp(bytes, { failOn: 'error' }).metadata()
  } catch (error) {
    throw new UnreadableImage(error instanceof Error ? error.message : String(error))
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS) throw new TooManyPixels(`${meta.width}×${meta.height}`)
  return { image: sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS }), hasAlpha: Boolean(meta.hasAlpha) }
}

/** Whether every pixel of RGBA bytes is fully opaque (a photo): then it needs no alpha channel. */
function opaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false
  return true
}

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
export async function webSizes(bytes: Uint8Array, mime: string): Promise<WebImage> {
  const { image, hasAlpha } = await source(bytes, mime)
  let upright: { data: Buffer; info: OutputInfo }
  try {
    upright = await image.rotate().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true })
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
