// Your account: change your password, see where you are signed in and sign out there.
import type { POST as ChangePassword } from '#routes/api/admin/account/password.ts'
import type { DELETE as EndSession } from '#routes/api/admin/account/sessions/[id].ts'
import type { GET as ListSessions } from '#routes/api/admin/account/sessions/index.ts'
import { api, byId, detailOf, h, say, when } from '../admin.ts'

const status = byId('status')
const form = byId<HTMLFormElement>('password')
const problem = byId('password-error')

async function load() {
  const res = await api<typeof ListSessions>('GET', '/api/admin/account/sessions')
  if (!res.ok) return say(status, detailOf(res), 'error')
  byId('sessions').replaceChildren(
    ...res.body.sessions.map((s) =>
      h(
        'li',
        { class: 'card' },
        h('p', {}, s.current ? 'This device' : (s.user_agent ?? 'Unknown device')),
        h('p', { class: 'muted' }, `Signed in ${when(s.created_at)} · last used ${when(s.last_seen_at)} · from ${s.address ?? 'unknown'}`),
        !s.current && h('button', { type: 'button', class: 'secondary', onclick: () => end(s.id) }, 'Sign out there'),
      ),
    ),
  )
}

async function end(id: number) {
  const res = await api<typeof EndSession>('DELETE', `/api/admin/account/sessions/${id}`)
  say(status, res.ok ? 'Signed out on that device.' : detailOf(res), res.ok ? 'notice' : 'error')
  await load()
}

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const data = new FormData(form)
  const res = await api<typeof ChangePassword>('POST', '/api/admin/account/password', {
    current_password: String(data.get('current_password')),
    new_password: String(data.get('new_password')),
  })
  if (!res.ok) return say(problem, detailOf(res), 'error')
  problem.hidden = true
  form.reset()
  say(status, `Password changed. ${res.body.other_sessions_ended} other sessions were signed out.`)
  await load()
})
await load()
