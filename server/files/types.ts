// What an upload is, read from its bytes (file-type), never from its name: the allowed kinds and the refused ones.
import { fileTypeFromBuffer } from 'file-type'

export type Sniffed =
  { ok: true; mime: string; ext: string; image: boolean } | { ok: false; reason: 'markup' | 'unsupported'; found: string | null }

const IMAGES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
}

const DOCUMENTS = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
])

/** Old binary Office files share one container (CFB); only its name tells a .doc from an .xls. */
const OLD_OFFICE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
}

/** A text file that a browser would run as a page or a drawing: refused even though it is text. */
const MARKUP = /^\s*(<\?xml|<!doctype|<html|<svg|<head|<body|<script|<iframe|<!--)/i

/** What `bytes` are, and whether an upload of them is allowed; `name` only tells old Office formats apart. */
export async function sniff(bytes: Uint8Array, name: string): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(bytes)
  if (found) {
    if (IMAGES[found.mime]) return { ok: true, mime: found.mime, ext: IMAGES[found.mime], image: true }
    if (DOCUMENTS.has(found.mime)) return { ok: true, mime: found.mime, ext: found.ext, image: false }
    const ext = name.toLowerCase().split('.').pop() ?? ''
    if (found.mime === 'application/x-cfb' && OLD_OFFICE[ext]) return { ok: true, mime: OLD_OFFICE[ext], ext, image: false }
    if (found.mime === 'application/xml' || found.mime === 'image/svg+xml' || found.mime === 'text/html')
      return { ok: false, reason: 'markup', found: found.mime }
    return { ok: false, reason: 'unsupported', found: found.mime }
  }
  const text = plainText(bytes)
  if (text === null) return { ok: false, reason: 'unsupported', found: null }
  if (MARKUP.test(text.slice(0, 1024)) || /<svg[\s>]/i.test(text.slice(0, 4096))) return { ok: false, reason: 'markup', found: 'text/html' }
  return { ok: true, mime: 'text/plain', ext: 'txt', image: false }
}

/** The bytes as text when they are valid UTF-8 without NUL or other control bytes a text file never has; else null. */
function plainText(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
  return /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/.test(text) ? null : text
}
