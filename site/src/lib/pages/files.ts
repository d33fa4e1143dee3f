// Files: the upload form (multipart, so sent with fetch and FormData rather than api()), the list newest first with
// each file's address to copy, and delete.
import type { AnswerOf } from '#server/routes.ts'
import { sizeWords, UNIT_WORDS } from '#server/words.ts'
import {
  onSend,
  api,
  byId,
  h,
  signedInFor,
  type Route,
  showStatus,
  showError,
  showOutcomeRedrawn,
  bodyOrShowError,
  when,
} from '../admin.ts'

type FileInfo = AnswerOf<Route<'GET /api/admin/files'>>['files'][number]

await signedInFor('/admin/files/')
const list = byId('files')
const more = byId<HTMLButtonElement>('more-files')
let cursor: string | null = null

function card(file: FileInfo): HTMLElement {
  const address = h('input', {
    readonly: true,
    value: file.url,
    'aria-label': `Address of ${file.name}`,
    class: 'file-address',
  }) as HTMLInputElement
  const unit = file.unit === 'both' ? 'Pack and troop' : UNIT_WORDS[file.unit]
  return h(
    'li',
    { class: 'card stack', 'data-file': file.id },
    file.width && file.sizes[0]
      ? h('img', {
          src: file.sizes[0].url,
          alt: '',
          width: String(file.sizes[0].width),
          height: String(file.sizes[0].height),
          class: 'file-thumb',
          loading: 'lazy',
        })
      : null,
    h(
      'p',
      {},
      h('a', { href: file.url }, file.name),
      ` · ${sizeWords(file.bytes)} · ${unit} · ${file.visibility === 'public' ? 'public' : 'members only'}`,
    ),
    h('p', { class: 'muted' }, `Uploaded ${when(file.created_at)} by ${file.created_by}`),
    address,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'secondary', onclick: () => copy(address) }, 'Copy address'),
      h('button', { type: 'button', class: 'danger', onclick: () => remove(file) }, 'Delete'),
    ),
  )
}

async function copy(address: HTMLInputElement) {
  address.select()
  await navigator.clipboard?.writeText(address.value).catch(() => {})
  showStatus('Address copied: paste it into a page.')
}

async function load(append = false) {
  const path = append && cursor ? (`/api/admin/files?cursor=${encodeURIComponent(cursor)}` as '/api/admin/files') : '/api/admin/files'
  const body = bodyOrShowError(await api('GET', path))
  if (!body) return
  if (!append) list.replaceChildren()
  list.append(...body.files.map(card))
  if (!list.children.length) list.append(h('li', {}, 'No files yet.'))
  cursor = body.next_cursor
  more.hidden = !cursor
}

async function remove(file: FileInfo) {
  if (!confirm(`Delete ${file.name}? Pages that show or link it lose it at the next site update.`)) return
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/files/${file.id}`), `${file.name} is deleted.`, load)
}

const form = byId<HTMLFormElement>('upload')
const problem = byId('upload-error')
onSend(form, async (event) => {
  event.preventDefault()
  problem.hidden = true
  const button = form.querySelector('button[type=submit]') as HTMLButtonElement
  button.disabled = true
  const res = await fetch('/api/admin/files', { method: 'POST', body: new FormData(form), credentials: 'same-origin' }).catch(() => null)
  button.disabled = false
  const body = await res?.json().catch(() => null)
  if (!res || !res.ok) return showError(res ? { status: res.status, body: body ?? {} } : 'No answer from the site; try again.', problem)
  form.reset()
  await load()
  showStatus(`Uploaded ${body.name}.`)
})
more.addEventListener('click', () => load(true))
await load()
