// The API keys page: your keys with their state, minting one with scope checkboxes (secret shown once), revoking.
import type { AnswerOf } from '#server/routes.ts'
import { CAPABILITY_WORDS } from '#server/auth/capabilities.ts'
import { api, byId, h, onSubmit, signedInFor, text, when, type Route, showStatus, showOutcomeRedrawn, bodyOrShowError } from '../admin.ts'
import { confirmingFirst } from '../confirm-you.ts'

type Key = AnswerOf<Route<'GET /api/admin/keys'>>['keys'][number]
const STATES: Record<Key['state'], string> = { active: 'active', revoked: 'revoked', expired: 'expired' }

await signedInFor('/admin/keys/')

/** A permission in words, with the scope name a script writer needs beside it. */
const permission = (scope: Key['scopes'][number]) => [CAPABILITY_WORDS[scope], ' ', h('code', { class: 'scope' }, scope)]

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/keys'))
  if (!body) return
  byId('scopes').replaceChildren(
    h('legend', {}, 'Permissions'),
    ...body.grantable_scopes.map((s) =>
      h('label', {}, h('input', { type: 'checkbox', name: 'scopes', value: s }), h('span', {}, ...permission(s))),
    ),
  )
  byId('keys').replaceChildren(
    ...body.keys.map((k) =>
      h(
        'tr',
        {},
        h('td', {}, k.label, h('br'), h('span', { class: 'muted' }, `site_${k.hint}…`)),
        h('td', {}, h('ul', { class: 'plain' }, ...k.scopes.map((s) => h('li', {}, ...permission(s))))),
        h('td', {}, h('span', { class: `badge ${k.state}` }, STATES[k.state])),
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
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/keys/${k.id}`), `Revoked "${k.label}".`, load)
}

byId('copy').addEventListener('click', async () => {
  await navigator.clipboard?.writeText(byId('secret-value').textContent ?? '')
  showStatus('Key copied to the clipboard.')
})
await load()
// Taken once the permissions are shown: a key pressed for before then is sent now (lib/admin.ts).
onSubmit(
  byId<HTMLFormElement>('mint'),
  (data) =>
    !data.getAll('scopes').length
      ? Promise.resolve({ ok: false as const, status: 422, body: { detail: 'scopes: need at least one box ticked' } })
      : confirmingFirst(() =>
          api('POST', '/api/admin/keys', {
            label: text(data, 'label'),
            scopes: data.getAll('scopes').map(String) as AnswerOf<Route<'GET /api/admin/keys'>>['grantable_scopes'],
            expires_days: data.get('expires_days') ? Number(data.get('expires_days')) : undefined,
          }),
        ),
  async (minted) => {
    showStatus(`Created "${minted.label}".`)
    byId('secret-value').textContent = minted.key ?? ''
    byId('secret').hidden = false
    byId<HTMLDetailsElement>('mint-open').open = false
    await load()
  },
  {},
)
