// The API keys page: your keys with their state, minting one with scope checkboxes (secret shown once), revoking.
import type { DELETE as RevokeKey } from '#routes/api/admin/keys/[id].ts'
import type { GET as ListKeys, POST as MintKey } from '#routes/api/admin/keys/index.ts'
import type { AnswerOf } from '#server/routes.ts'
import { answered, api, byId, h, onSubmit, report, tell, text, when } from '../admin.ts'

type Key = AnswerOf<typeof ListKeys>['keys'][number]

async function load() {
  const body = answered(await api<typeof ListKeys>('GET', '/api/admin/keys'))
  if (!body) return
  byId('scopes').replaceChildren(
    h('legend', {}, 'Scopes'),
    ...body.grantable_scopes.map((s) => h('label', {}, h('input', { type: 'checkbox', name: 'scopes', value: s }), s)),
  )
  byId('keys').replaceChildren(
    ...body.keys.map((k) =>
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
  report(await api<typeof RevokeKey>('DELETE', `/api/admin/keys/${k.id}`), `Revoked "${k.label}".`)
  await load()
}

onSubmit(
  byId<HTMLFormElement>('mint'),
  (data) =>
    api<typeof MintKey>('POST', '/api/admin/keys', {
      label: text(data, 'label'),
      scopes: data.getAll('scopes').map(String) as AnswerOf<typeof ListKeys>['grantable_scopes'],
      expires_days: data.get('expires_days') ? Number(data.get('expires_days')) : undefined,
    }),
  async (minted) => {
    tell(`Created "${minted.label}".`)
    byId('secret-value').textContent = minted.key
    byId('secret').hidden = false
    await load()
  },
  { problem: byId('status') },
)

byId('copy').addEventListener('click', async () => {
  await navigator.clipboard?.writeText(byId('secret-value').textContent ?? '')
  tell('Key copied to the clipboard.')
})
await load()
