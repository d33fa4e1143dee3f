// The one image of a multipart/form-data photo upload, read with the files' bound (files.max_mb: 413 past it,
// whatever Content-Length says); anything but a form with a `file` part is refused in plain words.
import type { Executor } from '../db/database.ts'
import { HttpError, unprocessable } from '../errors.ts'
import { MB, tooLarge } from '../files/files.ts'
import { readBytes } from '../http/body.ts'
import { getSetting } from '../settings/registry.ts'

/** Room in a multipart body for its boundaries beside the file itself. */
const FORM_OVERHEAD = 64 * 1024

export async function formFile(db: Executor, request: Request): Promise<{ name: string; bytes: Uint8Array }> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data'))
    throw new HttpError(415, 'Send the photo as a form upload (multipart/form-data) with a part named file', { code: 'multipart_required' })
  const maxMb = await getSetting(db, 'files.max_mb')
  let bytes: Uint8Array
  try {
    bytes = await readBytes(request, maxMb * MB + FORM_OVERHEAD)
  } catch (error) {
    throw error instanceof HttpError && error.status === 413 ? tooLarge(maxMb) : error
  }
  let form: FormData
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData()
  } catch {
    throw new HttpError(400, 'The form upload could not be read (a broken multipart body)')
  }
  const file = form.get('file')
  if (!(file instanceof Blob) || file.size === 0) throw unprocessable('file: send the photo in a part named file', 'required', 'file')
  if (file.size > maxMb * MB) throw tooLarge(maxMb)
  return { name: file instanceof File ? file.name : 'photo', bytes: new Uint8Array(await file.arrayBuffer()) }
}
