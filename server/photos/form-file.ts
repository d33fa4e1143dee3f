// The one file of a multipart/form-data upload, read with a bound: at most `limit` bytes of body are read (413 past
// them, whatever Content-Length says), anything but a form with a `file` field is refused in plain words.
import { HttpError, unprocessable } from '../errors.ts'

export async function formFile(request: Request, limit: number, field = 'file'): Promise<{ name: string; bytes: Uint8Array }> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(type))
    throw new HttpError(415, `Send the ${field} as multipart/form-data, in a field named "${field}"`)
  const tooLarge = () => new HttpError(413, `The upload is larger than ${Math.round(limit / 1048576)} MB`)
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge()
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body?.getReader()
  for (;;) {
    if (!reader) break
    const { done, value } = await reader.read().catch(() => {
      throw new HttpError(400, 'The request body ended before it was complete (the connection dropped)')
    })
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  let form: FormData
  try {
    form = await new Response(Buffer.concat(chunks, total), { headers: { 'content-type': type } }).formData()
  } catch {
    throw new HttpError(400, 'The multipart body could not be read')
  }
  const file = form.get(field)
  if (!file || typeof file === 'string') throw unprocessable(`${field}: send one file in the field "${field}"`, 'no_file', field)
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }
}
