// Announcements: every one with its state, a create form that names the live ones when the cap is reached, and revoke.
import type { DELETE as RevokeAnnouncement } from '#routes/api/admin/announcements/[id].ts'
import type { GET as ListAnnouncements, POST as CreateAnnouncement } from '#routes/api/admin/announcements/index.ts'
import type { AnswerOf } from '#server/routes.ts'
import { api, byId, detailOf, h, say, when } from '../admin.ts'

type Announcement = AnswerOf<typeof ListAnnouncements>['announcements'][number]

const status = byId('status')
const form = byId<HTMLFormElement>('create')
const problem = byId('create-error')
const LABEL: Record<Announcement['state'], string> = {
  live: 'live',
  scheduled: 'scheduled',
  expired: 'expired',
  revoked: 'revoked',
  over_cap: 'over the cap (not shown)',
}
// datetime-local has no zone: it is the browser's local time, sent as an instant.
const iso = (local: FormDataEntryValue | null) => (local ? new Date(String(local)).toISOString() : undefined)

async function load() {
  const res = await api<typeof ListAnnouncements>('GET', '/api/admin/announcements')
  if (!res.ok) return say(status, detailOf(res), 'error')
  byId('announcements').replaceChildren(
    ...res.body.announcements.map((a) =>
      h(
        'li',
        { class: 'card', 'data-announcement': String(a.id) },
        h('p', {}, h('span', { class: `badge ${a.state === 'live' ? 'active' : a.state}` }, LABEL[a.state])),
        h('p', {}, a.message),
        h('p', { class: 'muted' }, `${when(a.starts_at)} to ${when(a.ends_at)} · by ${a.created_by}`),
        a.state !== 'revoked' && h('button', { type: 'button', class: 'danger', onclick: () => revoke(a) }, 'Revoke'),
      ),
    ),
  )
}

async function revoke(a: Announcement) {
  if (!confirm('Take this announcement down now?')) return
  const res = await api<typeof RevokeAnnouncement>('DELETE', `/api/admin/announcements/${a.id}`)
  say(status, res.ok ? 'Announcement revoked; the site updates in a few seconds.' : detailOf(res), res.ok ? 'notice' : 'error')
  await load()
}

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const data = new FormData(form)
  const ends_at = iso(data.get('ends_at')) ?? ''
  const res = await api<typeof CreateAnnouncement>('POST', '/api/admin/announcements', {
    message: String(data.get('message')),
    ends_at,
    starts_at: iso(data.get('starts_at')),
  })
  if (!res.ok) {
    const live = res.body.live as { message: string }[] | undefined
    return say(problem, `${detailOf(res)}${live ? ` Live now: ${live.map((a) => `“${a.message}”`).join(', ')}.` : ''}`, 'error')
  }
  problem.hidden = true
  form.reset()
  say(status, `Published (${LABEL[res.body.state]}). The site updates in a few seconds.`)
  await load()
})
await load()
