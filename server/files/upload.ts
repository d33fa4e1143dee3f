// Reads a multipart upload (one `file` part and text fields), bounded by files.max_mb: the body of a file's upload
// (an Upload) and of a photo's (photos/form-file.ts).
import type { Executor } from '../db/database.ts'
import { HttpError, unprocessable } from '../errors.ts'
import { readBytes } from '../http/body.ts'
import { validator } from '../http/validate.ts'
import { getSetting } from '../settings/registry.ts'
import { MB, tooLarge, type Upload, UploadFields } from './files.ts'

const checkFields = validator(UploadFields, 'body')

/** Room in a multipart body for its boundaries and text fields beside the file itself. */
const FORM_OVERHEAD = 64 * 1024

/**
 * A multipart/form-data body read whole within files.max_mb (413 past it, whatever Content-Length says), for an upload
 * of `what` (a file, a photo); anything but a readable form is refused in plain words.
 */
export async function readMultipart(db: Executor, request: Request, what: string): Promise<{ form: FormData; maxMb: number }> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data'))
    throw new HttpError(415, `Send the ${what} as a form upload (multipart/form-data) with a part named file`, {
      code: 'multipart_required',
    })
  const maxMb = await getSetting(db, 'files.max_mb')
  let bytes: Uint8Array
  try {
    bytes = await readBytes(request, maxMb * MB + FORM_OVERHEAD)
  } catch (error) {
    throw error instanceof HttpError && error.status === 413 ? tooLarge(maxMb) : error
  }
  try {
    return { form: await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData(), maxMb }
  } catch {
    throw new HttpError(400, 'The form upload could not be read (a broken multipart body)')
  }
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
