// Test images built on the spot: a phone photo carrying camera and GPS EXIF, and a check for a GPS block.
import sharp from 'sharp'

/** A photo as a phone writes it: 2000×1200 pixels stored sideways (orientation 6), with camera and GPS EXIF. */
export async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 2000, height: 1200, channels: 3, background: '#3a6' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'CamCo', Model: 'X100', ImageDescription: 'serial 1234' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 46/1', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 56/1' },
    })
    .toBuffer()
}

/** Whether an EXIF block holds a pointer to a GPS directory (tag 0x8825, either byte order). */
export const hasGps = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))

/** Whether served image bytes carry any metadata block at all (EXIF, XMP, IPTC) or the camera's name. */
export async function carriesMetadata(bytes: Uint8Array): Promise<boolean> {
  const meta = await sharp(bytes).metadata()
  return Boolean(meta.exif || meta.xmp || meta.iptc || meta.orientation) || Buffer.from(bytes).includes('CamCo')
}

/**
 * A photo as an iPhone sends it: HEIC (HEVC inside, which sharp's prebuilt libvips cannot decode), 640×480, a colour
 * ramp (red across, green down, blue 128), with camera and GPS EXIF. Made once with libheif's `heif-enc -q 40` from a
 * JPEG built like phonePhoto (apt-get install libheif-examples).
 */
export const heicPhoto = async () => new Uint8Array(await Bun.file(new URL('./fixtures/images/phone-gps.heic', import.meta.url)).bytes())

/** The same bytes with the image's header claiming `width`×`height` pixels: a decompression bomb's header (HEIC `ispe`, JPEG SOF). */
export function claimingPixels(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const copy = new Uint8Array(bytes)
  const view = new DataView(copy.buffer)
  const ispe = Buffer.from(copy).indexOf('ispe')
  if (ispe >= 0) {
    view.setUint32(ispe + 8, width)
    view.setUint32(ispe + 12, height)
    return copy
  }
  const sof = Buffer.from(copy).indexOf(Buffer.from([0xff, 0xc0]))
  if (sof < 0) throw new Error('neither a HEIC nor a baseline JPEG')
  view.setUint16(sof + 5, height)
  view.setUint16(sof + 7, width)
  return copy
}
