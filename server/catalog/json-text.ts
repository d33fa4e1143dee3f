// Reads a season file's bytes as strict JSON: UTF-8 without a byte-order mark, valid JSON, no key given twice.
import { duplicateKeys } from './duplicate-keys.ts'

export interface TextProblem {
  pointer: string
  message: string
}

/** A value for a one-line message: JSON-quoted, with the line separators JSON.stringify leaves alone escaped too. */
export const quote = (value: string) =>
  JSON.stringify(value).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ')

/** For a lead byte: the sequence length and the allowed range of the second byte (Unicode table 3-7); length 0 is never valid. */
function sequence(b: number): [length: number, low: number, high: number] {
  if (b < 0x80) return [1, 0, 0]
  if (b < 0xc2) return [0, 0, 0]
  if (b < 0xe0) return [2, 0x80, 0xbf]
  if (b === 0xe0) return [3, 0xa0, 0xbf]
  if (b === 0xed) return [3, 0x80, 0x9f]
  if (b < 0xf0) return [3, 0x80, 0xbf]
  if (b === 0xf0) return [4, 0x90, 0xbf]
  if (b < 0xf4) return [4, 0x80, 0xbf]
  if (b === 0xf4) return [4, 0x80, 0x8f]
  return [0, 0, 0]
}

/** Offset of the first byte that does not begin a well-formed UTF-8 sequence, or -1. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const [length, low, high] = sequence(bytes[i])
    if (length === 0 || i + length > bytes.length) return i
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k]
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i
    }
    i += length
  }
  return -1
}

/** "line L, column C" of a byte offset whose preceding bytes are valid UTF-8; columns count UTF-16 code units. */
function bytePosition(bytes: Uint8Array, offset: number): string {
  const before = new TextDecoder().decode(bytes.subarray(0, offset))
  const lines = before.split('\n')
  return `line ${lines.length}, column ${lines.at(-1)!.length + 1}`
}

/** The parsed value, or the one problem that stops the file from being read; duplicate keys come with the value. */
export function readJson(input: string | Uint8Array): { value: unknown; duplicates: TextProblem[] } | { problem: TextProblem } {
  const fail = (message: string) => ({ problem: { pointer: '', message } })
  let text: string
  if (typeof input === 'string') text = input
  else {
    if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf)
      return fail('starts with a UTF-8 byte-order mark (bytes ef bb bf at line 1, column 1); save the file as UTF-8 without one')
    if ((input[0] === 0xff && input[1] === 0xfe) || (input[0] === 0xfe && input[1] === 0xff))
      return fail(`starts with a UTF-16 byte-order mark (bytes ${hex(input.subarray(0, 2))}); save the file as UTF-8 without one`)
    try {
      text = strictUtf8.decode(input)
    } catch {
      const at = invalidUtf8Offset(input)
      if (at < 0) return fail('not valid UTF-8; save the file as UTF-8')
      return fail(
        `not valid UTF-8 at ${bytePosition(input, at)} (byte offset ${at}: ${hex(input.subarray(at, at + 4))}); save the file as UTF-8`,
      )
    }
  }
  if (text.charCodeAt(0) === 0xfeff) return fail('starts with a byte-order mark (U+FEFF at line 1, column 1); save the file without one')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return fail(`not valid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`)
  }
  const duplicates = duplicateKeys(text).map((d) => ({
    pointer: d.object,
    message:
      `has the key ${quote(d.key)} twice (line ${d.first.line}, column ${d.first.column} and ` +
      `line ${d.again.line}, column ${d.again.column}); keys must be unique`,
  }))
  return { value, duplicates }
}
