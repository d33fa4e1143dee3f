// The API keys page: your keys with their state, minting one with scope checkboxes (secret shown once), revoking.
import type { DELETE as RevokeKey } from '#routes/api/admin/keys/[id].ts'
import type { GET as ListKeys, POST as MintKey } from '#routes/api/admin/keys/index.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { api, byId, detailOf, h, say, when } from '../admin.ts'

type Key = AnswerOf<typeof ListKeys>['keys'][number]

const status = byId('status')
const form = byId<HTMLFormElement>('mint')
const secret = byId('secret')

async function load() {
  const res = await api<typeof ListKeys>('GET', '/api/admin/keys')
  if (!res.ok) return say(status, detailOf(res), 'error')
  const scopes = byId('scopes')
  scopes.replaceChildren(h('legend', {}, 'Scopes'))
  for (const s of res.body.grantable_scopes) scopes.append(h('label', {}, h('input', { type: 'checkbox', name: 'scopes', value: s }), s))
  byId('keys').replaceChildren(
    ...res.body.keys.map((k) =>
      h(
        'tr',
        {},
        h('td', {}, k.label, h('br'), h('span', { class: 'muted' }, `site_${k.hint}…`)),
        h('td', {}, k.scopes.join(', ')),
        h('td', {}, h('span', { class: `badge ${k.state}` }, k.state)),
        h('td', {}, when(k.last_used_at)),
        h(
          'td',
          {},
          k.state === 'active' &&
            h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${k.label}`, onclick: () => revoke(k) }, 'Revoke'),
        ),
      ),
    ),
  )
}

async function revoke(k: Key) {
  if (!confirm(`Revoke the key "${k.label}"? Scripts using it stop working at once.`)) return
  const res = await api<typeof RevokeKey>('DELETE', `/api/admin/keys/${k.id}`)
  say(status, res.ok ? `Revoked "${k.label}".` : detailOf(res), res.ok ? 'notice' : 'error')
  await load()
}

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const data = new FormData(form)
  const body = { label: String(data.get('label')), scopes: data.getAll('scopes').map(String) } as BodyOf<typeof MintKey>
  if (data.get('expires_days')) body.expires_days = Number(data.get('expires_days'))
  const res = await api<typeof MintKey>('POST', '/api/admin/keys', body)
  if (!res.ok) return say(status, detailOf(res), 'error')
  say(status, `Created "${res.body.label}".`)
  byId('secret-value').textContent = res.body.key
  secret.hidden = false
  form.reset()
  await load()
})

byId('copy').addEventListener('click', async () => {
  await navigator.clipboard?.writeText(byId('secret-value').textContent ?? '')
  say(status, 'Key copied to the clipboard.')
})
await load()
