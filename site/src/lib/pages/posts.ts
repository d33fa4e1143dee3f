// Social posts: upcoming posts with their image, message and time in the site's time zone; cancel or reschedule them.
import type { AnswerOf } from '#server/routes.ts'
import { UNIT_WORDS } from '#server/words.ts'
import { api, byId, h, onSubmit, signedInFor, type Route, showStatus, showError, bodyOrShowError } from '../admin.ts'

await signedInFor('/admin/posts/')

type Post = AnswerOf<Route<'GET /api/admin/socialposts'>>['posts'][number]

const all = byId<HTMLInputElement>('all')
const list = byId('posts')
const OPEN = ['drafted', 'scheduled', 'handed_off']
const STATUS: Record<Post['status'], string> = {
  drafted: 'waiting for the publisher',
  scheduled: 'scheduled',
  handed_off: 'being published',
  published: 'published',
  cancelled: 'cancelled',
  failed: 'failed',
}
const shown = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' })
// datetime-local shows and gives the browser's local time; toISOString carries it as an instant.
const local = (iso: string) => {
  const d = new Date(iso)
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

async function load() {
  const body = bodyOrShowError(await api('GET', `/api/admin/socialposts${all.checked ? '?all=true' : ''}`))
  if (!body) return
  list.replaceChildren(...body.posts.map((p) => card(p, body.timezone)))
  if (!body.posts.length) list.append(h('li', {}, 'No posts are waiting.'))
}

function card(p: Post, zone: string): HTMLElement {
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const open = OPEN.includes(p.status)
  const form = h(
    'form',
    { class: 'stack', hidden: true, 'aria-label': `Reschedule ${p.id}` },
    h('label', {}, 'Message', h('textarea', { name: 'message', rows: '4', required: true }, p.message)),
    h(
      'label',
      {},
      'New time',
      h('input', { type: 'datetime-local', name: 'scheduled_for', required: true, value: local(p.scheduled_for) }),
    ),
    h('button', { type: 'submit' }, 'Send to the publisher'),
  ) as HTMLFormElement
  onSubmit(
    form,
    (data) =>
      api('POST', `/api/admin/socialposts/${p.id}/reschedule`, {
        message: String(data.get('message')),
        scheduled_for: new Date(String(data.get('scheduled_for'))).toISOString(),
      }),
    async () => {
      await load()
      showStatus('The publisher will schedule the post again on its next cycle.')
    },
    { problem, reset: false },
  )
  return h(
    'li',
    { class: 'card', 'data-post': p.id },
    p.image && h('img', { src: p.image.url, alt: `Image of post ${p.id}`, class: 'thumb', loading: 'lazy' }),
    h(
      'p',
      {},
      h('span', { class: `badge ${open ? 'active' : 'expired'}` }, STATUS[p.status]),
      ` ${shown(p.scheduled_for, zone)} · ${UNIT_WORDS[p.unit] ?? p.unit}`,
    ),
    h('p', {}, p.message),
    problem,
    open &&
      p.cancel_url &&
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', class: 'danger', onclick: () => cancel(p, problem) }, 'Cancel post'),
        h('button', { type: 'button', class: 'secondary', onclick: () => (form.hidden = !form.hidden) }, 'Reschedule'),
      ),
    p.status === 'drafted' && h('p', { class: 'muted' }, 'Waiting for the publisher to schedule it again.'),
    form,
  )
}

async function cancel(p: Post, problem: HTMLElement) {
  if (!confirm(`Cancel this post? It will not be published.\n\n${p.message.slice(0, 200)}`)) return
  const res = await api('POST', `/api/admin/socialposts/${p.id}/cancel`)
  if (!res.ok) return showError(res, problem)
  await load()
  showStatus('Post cancelled.')
}
all.addEventListener('change', load)
await load()
