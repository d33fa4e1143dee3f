// Reads a multipart upload (one `file` part and text fields), bounded by files.max_mb: the body of a file's upload
// (an Upload) and of a photo's (photos/form-file.ts).
import { createHash } from 'node:crypto'
import type { Executor } from '../db/database.ts'
import { HttpError, unprocessable } from '../errors.ts'
import { readBytes } from '../http/body.ts'
import { validator } from '../http/validate.ts'
import { getSetting } from '../settings/registry.ts'
import { MB, tooLarge, type Upload, UploadFields } from './files.ts'

const checkFields = validator(UploadFields, 'body')

/** Room in a multipart body for its boundaries and text fields beside the file itself. */
const FORM_OVERHEAD = 64 * 1024

/** The body of a multipart/form-data upload read whole within files.max_mb (413 past it, whatever Content-Length says). */
async function formBytes(db: Executor, request: Request, what: string): Promise<{ bytes: Uint8Array; type: string; maxMb: number }> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data'))
    throw new HttpError(415, `Send the ${what} as a form upload (multipart/form-data) with a part named file`, {
      code: 'multipart_required',
    })
  const maxMb = await getSetting(db, 'files.max_mb')
  try {
    return { bytes: await readBytes(request, maxMb * MB + FORM_OVERHEAD), type, maxMb }
  } catch (error) {
    throw error instanceof HttpError && error.status === 413 ? tooLarge(maxMb) : error
  }
}

async function formOf(bytes: Uint8Array, type: string): Promise<FormData> {
  try {
    return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData()
  } catch {
    throw new HttpError(400, 'The form upload could not be read (a broken multipart body)')
  }
}

/**
 * A multipart/form-data body read whole within files.max_mb (413 past it, whatever Content-Length says), for an upload
 * of `what` (a file, a photo); anything but a readable form is refused in plain words.
 */
export async function readMultipart(db: Executor, request: Request, what: string): Promise<{ form: FormData; maxMb: number }> {
  const read = fingerprinted.get(request)
  if (read) return read
  const { bytes, type, maxMb } = await formBytes(db, request, what)
  return { form: await formOf(bytes, type), maxMb }
}

/** The forms uploadFingerprint already read, by the request it hands on: the route's read takes them, not a second parse. */
const fingerprinted = new WeakMap<Request, { form: FormData; maxMb: number }>()

/**
 * What an upload sent with an Idempotency-Key is, for telling a retry from another upload under the same key: each
 * part's name and its text, or the SHA-256 of its file's bytes (the boundary differs from one send to the next, so
 * the raw body cannot be compared). The body is read here: the request handed on carries the form read, for
 * readMultipart.
 */
export async function uploadFingerprint(db: Executor, request: Request): Promise<{ fingerprint: string; request: Request }> {
  const { bytes, type, maxMb } = await formBytes(db, request, 'file')
  const form = await formOf(bytes, type)
  const parts: string[] = []
  for (const [name, value] of form.entries() as Iterable<[string, string | Blob]>)
    parts.push(
      value instanceof Blob
        ? `${name}=file:${createHash('sha256')
            .update(new Uint8Array(await value.arrayBuffer()))
            .digest('hex')}`
        : `${name}=${JSON.stringify(value)}`,
    )
  const again = new Request(request.url, { method: request.method, headers: request.headers })
  fingerprinted.set(again, { form, maxMb })
  return { fingerprint: parts.join('\n'), request: again }
}

export async function readUpload(db: Executor, request: Request): Promise<Upload> {
  const { form } = await readMultipart(db, request, 'file')
  const file = form.get('file')
  if (!(file instanceof Blob)) throw unprocessable('file: send the file in a part named file', 'required', 'file')
  if (file.size === 0) throw unprocessable('file: the file is empty', 'empty', 'file')
  const fields: Record<string, string> = {}
  for (const [key, value] of form.entries()) if (key !== 'file' && typeof value === 'string') fields[key] = value
  return {
    name: file instanceof File && file.name ? file.name : 'file',
    bytes: new Uint8Array(await file.arrayBuffer()),
    fields: checkFields(fields) as typeof UploadFields.static,
  }
}
