// Decodes one HEIC on a thread of its own: libheif (wasm) holds the JavaScript thread for most of a second on a phone
// photo, and its memory grows to the largest image it has decoded and never shrinks; the thread ends with its job.
import decodeHeic from 'heic-decode'

declare const self: Worker

export interface HeicJob {
  bytes: Uint8Array
  maxPixels: number
}
/** The pixels (RGBA), or the size that was too large (nothing decoded), or why it could not be read. */
export type HeicResult =
  { width: number; height: number; data: Uint8ClampedArray } | { tooMany: { width: number; height: number } } | { error: string }

self.onmessage = async (event: MessageEvent<HeicJob>) => {
  const { bytes, maxPixels } = event.data
  let result: HeicResult
  try {
    const frames = await decodeHeic.all({ buffer: bytes })
    try {
      const first = frames[0]
      if (!first) throw new Error('no image in the file')
      // Sizes come from the file's header: a bomb is refused before a single pixel is made.
      if (first.width * first.height > maxPixels) result = { tooMany: { width: first.width, height: first.height } }
      else result = await first.decode()
    } finally {
      frames.dispose()
    }
  } catch (error) {
    result = { error: (error instanceof Error ? error.message : String(error)).split('\n')[0] }
  }
  self.postMessage(result, 'data' in result ? [result.data.buffer] : [])
}
