// History: the action log, newest first, filtered by area and by who, paged, downloadable as CSV.
import { kindWords } from '#server/db/history-kinds.ts'
import type { AnswerOf } from '#server/routes.ts'
import { onSend, api, byId, formParams, h, signedInFor, when, type Route, bodyOrShowError } from '../admin.ts'

const ACTORS: Record<string, string> = {
  anonymous: 'a visitor',
  system: 'the site',
  cli: 'the command line',
  break_glass: 'the admin token',
}

await signedInFor('/admin/history/')
const form = byId<HTMLFormElement>('filter')
// A link may open the history filtered (the dashboard's failing-backup card opens the backups).
for (const [name, value] of new URLSearchParams(location.search)) {
  const field = form.elements.namedItem(name)
  if (field instanceof HTMLSelectElement || field instanceof HTMLInputElement) field.value = value
}
const more = byId('more')
const rows = byId('entries')
let next: AnswerOf<Route<'GET /api/admin/history'>>['next'] = null

async function page(reset: boolean) {
  if (!reset && !next) return
  const params = formParams(form)
  byId<HTMLAnchorElement>('csv').href = `/api/admin/history/export?${params}`
  if (!reset && next) {
    params.set('before', next.before)
    params.set('before_id', String(next.before_id))
  }
  const body = bodyOrShowError(await api('GET', `/api/admin/history?${params}`))
  if (!body) return
  if (reset) rows.replaceChildren()
  for (const e of body.entries)
    rows.append(
      h(
        'tr',
        {},
        h('td', { 'data-label': 'When' }, when(e.at)),
        h('td', { 'data-label': 'What', title: e.kind }, kindWords(e.kind)),
        h('td', { 'data-label': 'Who' }, ACTORS[e.actor] ?? e.actor),
        h('td', { 'data-label': 'Details' }, e.summary),
      ),
    )
  if (!rows.children.length) rows.append(h('tr', {}, h('td', { colspan: '4' }, 'Nothing matches.')))
  next = body.next
  more.hidden = !next
}

onSend(form, (event) => {
  event.preventDefault()
  void page(true)
})
more.addEventListener('click', () => page(false))
await page(true)
