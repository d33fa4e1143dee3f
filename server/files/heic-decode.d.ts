// heic-decode ships no types: the part of it images.ts uses.
declare module 'heic-decode' {
  interface Decoded {
    width: number
    height: number
    /** RGBA, 4 bytes a pixel. */
    data: Uint8ClampedArray
  }
  interface Frame {
    width: number
    height: number
    decode(): Promise<Decoded>
  }
  function decode(input: { buffer: Uint8Array }): Promise<Decoded>
  namespace decode {
    /** Every image in the file, read but not yet decoded: their sizes are known before any pixel is made. */
    function all(input: { buffer: Uint8Array }): Promise<Frame[] & { dispose(): void }>
  }
  export default decode
}
