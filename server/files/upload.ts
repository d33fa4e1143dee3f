// Reads a multipart upload (one `file` part and text fields), bounded by files.max_mb, into an Upload.
import type { Db } from '../db/client.ts'
import { HttpError, unprocessable } from '../errors.ts'
import { readBytes } from '../http/body.ts'
import { validator } from '../http/validate.ts'
import { getSetting } from '../settings/registry.ts'
import { MB, tooLarge, type Upload, UploadFields } from './files.ts'

const checkFields = validator(UploadFields, 'body')

/** Room in a multipart body for its boundaries and text fields beside the file itself. */
const FORM_OVERHEAD = 64 * 1024

export async function readUpload(db: Db, request: Request): Promise<Upload> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data'))
    throw new HttpError(415, 'Send the file as a form upload (multipart/form-data) with a part named file', { code: 'multipart_required' })
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
