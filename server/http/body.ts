// Request bodies, read once and bounded: at most `limit` bytes actually read (413, whatever Content-Length
// says or when it is absent), JSON no deeper than MAX_DEPTH (400, found by a scan before any object is
// built), forms as flat fields, and any other type of body refused (415). A body the client stops sending
// part-way (it dropped or aborted) is the client's doing: 400, never a server error with a stack in the log.
import { HttpError } from '../errors.ts'

/** Nesting deeper than this is no honest request to this API, and validating it could recurse without bound. */
export const MAX_DEPTH = 32
export const DEFAULT_BODY_LIMIT = 1024 * 1024

const utf8 = new TextDecoder('utf-8', { fatal: true })

export async function readBytes(request: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new HttpError(413, `Request body is larger than ${limit} bytes`)
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge()
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new HttpError(400, 'The request body ended before it was complete (the connection dropped)')
    })
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await drain(reader)
      throw tooLarge()
    }
    chunks.push(value)
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total)
}

/** Past this much, a body over its limit is cut off rather than read to its end (Bun refuses more anyway). */
const DRAIN_LIMIT = 16 * 1024 * 1024

/**
 * Reads and discards the rest of a body that is over its limit, so the 413 reaches the client: closing the
 * connection with its data unread makes the kernel reset it, and the reset can destroy the answer before the
 * client reads it.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let drained = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      drained += value.byteLength
      if (drained > DRAIN_LIMIT) break
    }
  } catch {
    return
  }
  await reader.cancel().catch(() => {})
}

/** True when arrays and objects nest deeper than `max` (strings are skipped, escapes included). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

const isJson = (type: string) => type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
const FORM = 'application/x-www-form-urlencoded'

/**
 * The body as the exact UTF-8 text sent, at most `limit` bytes (413 past it, 400 when it is not UTF-8): for a route
 * that checks a signature over the bytes (a payment provider's webhook) and so reads its body itself.
 */
export async function readText(request: Request, limit: number): Promise<string> {
  const bytes = await readBytes(request, limit)
  try {
    return utf8.decode(bytes)
  } catch {
    throw new HttpError(400, 'The request body is not valid UTF-8')
  }
}

/** The parsed body (null when empty); `contentType` is the media type without parameters, lower case. */
export async function parseBody(request: Request, contentType: string, limit: number, forms: boolean): Promise<unknown> {
  const bytes = await readBytes(request, limit)
  if (!bytes.byteLength) return null
  if (!isJson(contentType) && !(forms && contentType === FORM))
    throw new HttpError(415, `Send the body as JSON (application/json)${forms ? ' or as a form (application/x-www-form-urlencoded)' : ''}`)
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    throw new HttpError(400, 'The request body is not valid UTF-8')
  }
  if (contentType === FORM) return Object.fromEntries(new URLSearchParams(text))
  if (nestsDeeperThan(text, MAX_DEPTH)) throw new HttpError(400, `The JSON body nests deeper than ${MAX_DEPTH} levels`)
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, 'Malformed JSON body')
  }
}
