// Announcements: every one with its state, a create form that names the live ones when the cap is reached, and revoke.
import type { DELETE as RevokeAnnouncement } from '#routes/api/admin/announcements/[id].ts'
import type { GET as ListAnnouncements, POST as CreateAnnouncement } from '#routes/api/admin/announcements/index.ts'
import type { AnswerOf } from '#server/routes.ts'
import { answered, api, byId, detailOf, h, onSubmit, report, tell, when } from '../admin.ts'

type Announcement = AnswerOf<typeof ListAnnouncements>['announcements'][number]

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
  const body = answered(await api<typeof ListAnnouncements>('GET', '/api/admin/announcements'))
  if (!body) return
  byId('announcements').replaceChildren(
    ...body.announcements.map((a) =>
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
  report(
    await api<typeof RevokeAnnouncement>('DELETE', `/api/admin/announcements/${a.id}`),
    'Announcement revoked; the site updates in a few seconds.',
  )
  await load()
}

onSubmit(
  byId<HTMLFormElement>('create'),
  (data) =>
    api<typeof CreateAnnouncement>('POST', '/api/admin/announcements', {
      message: String(data.get('message')),
      ends_at: iso(data.get('ends_at')) ?? '',
      starts_at: iso(data.get('starts_at')),
    }),
  async (created) => {
    tell(`Published (${LABEL[created.state]}). The site updates in a few seconds.`)
    await load()
  },
  {
    refused: (res) => {
      const live = res.body.live as { message: string }[] | undefined
      return `${detailOf(res)}${live ? ` Live now: ${live.map((a) => `“${a.message}”`).join(', ')}.` : ''}`
    },
  },
)
await load()
