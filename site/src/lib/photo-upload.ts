// Sending one photo to an event's album from a phone: a form upload that says how far it has got in words (a phone
// photo over a weak signal takes a while), with an Idempotency-Key kept for the same file until an answer comes, so
// sending it again after the connection dropped adds it once.
import { SIGNED_IN_COOKIE } from '#server/auth/signed-in-hint.ts'
import type { Refusal } from './admin.ts'
import { newKey } from './retry-keys.ts'

export type Sent = { ok: true; body: { id: number } } | { ok: false; status: number; detail: string }

const keys = new WeakMap<File, string>()

/** POSTs `file` to the album at `path`, telling `progress` the share sent so far (0–100). */
export function sendPhoto(path: string, file: File, progress: (percent: number) => void): Promise<Sent> {
  const key = keys.get(file) ?? newKey()
  keys.set(file, key)
  const body = new FormData()
  body.append('file', file)
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', path)
    xhr.setRequestHeader('idempotency-key', key)
    xhr.upload.onprogress = (e) => e.lengthComputable && progress(Math.floor((e.loaded / e.total) * 100))
    xhr.onerror = () => resolve({ ok: false, status: 0, detail: 'No answer came back (the connection dropped). Add the photo again.' })
    xhr.onload = () => {
      if (xhr.status < 500) keys.delete(file)
      if (xhr.status === 401) {
        document.cookie = `${SIGNED_IN_COOKIE}=; Path=/; Max-Age=0`
        location.href = `/login/?next=${encodeURIComponent(location.pathname)}`
        return
      }
      let answer: Refusal | { id: number } | null = null
      try {
        answer = JSON.parse(xhr.responseText)
      } catch {}
      if (xhr.status === 201 && answer && 'id' in answer) return resolve({ ok: true, body: answer as { id: number } })
      const detail = answer && 'detail' in answer && typeof answer.detail === 'string' ? answer.detail : null
      resolve({ ok: false, status: xhr.status, detail: detail ?? `The photo could not be added (error ${xhr.status}). Try again later.` })
    }
    xhr.send(body)
  })
}
