// History: the action log, newest first, filtered by kind and actor, paged, downloadable as CSV.
import type { GET as ListHistory } from '#routes/api/admin/history/index.ts'
import type { AnswerOf } from '#server/routes.ts'
import { api, byId, detailOf, formParams, h, say, when } from '../admin.ts'

const status = byId('status')
const form = byId<HTMLFormElement>('filter')
const more = byId('more')
const rows = byId('entries')
let next: AnswerOf<typeof ListHistory>['next'] = null

async function page(reset: boolean) {
  const params = formParams(form)
  byId<HTMLAnchorElement>('csv').href = `/api/admin/history/export?${params}`
  if (!reset && next) {
    params.set('before', next.before)
    params.set('before_id', String(next.before_id))
  }
  const res = await api<typeof ListHistory>('GET', `/api/admin/history?${params}`)
  if (!res.ok) return say(status, detailOf(res), 'error')
  if (reset) rows.replaceChildren()
  for (const e of res.body.entries)
    rows.append(h('tr', {}, h('td', {}, when(e.at)), h('td', {}, e.kind), h('td', {}, e.actor), h('td', {}, e.summary)))
  if (!rows.children.length) rows.append(h('tr', {}, h('td', { colspan: '4' }, 'Nothing matches.')))
  next = res.body.next
  more.hidden = !next
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  void page(true)
})
more.addEventListener('click', () => page(false))
await page(true)
