// The one image of a multipart/form-data photo upload, read with the files' bound (files.max_mb: 413 past it,
// whatever Content-Length says); anything but a form with a `file` part is refused in plain words.
import type { Executor } from '../db/database.ts'
import { unprocessable } from '../errors.ts'
import { MB, tooLarge } from '../files/files.ts'
import { readMultipart } from '../files/upload.ts'

export async function formFile(db: Executor, request: Request): Promise<{ name: string; bytes: Uint8Array }> {
  const { form, maxMb } = await readMultipart(db, request, 'photo')
  const file = form.get('file')
  if (!(file instanceof Blob) || file.size === 0) throw unprocessable('file: send the photo in a part named file', 'required', 'file')
  if (file.size > maxMb * MB) throw tooLarge(maxMb)
  return { name: file instanceof File ? file.name : 'photo', bytes: new Uint8Array(await file.arrayBuffer()) }
}
