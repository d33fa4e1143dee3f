// Your account: your second factors, changing your password, what the site mails you, your email on the unit page,
// and where you are signed in (sign out there).
import { api, byId, h, onSubmit, signedInFor, when, showStatus, showOutcome, showOutcomeRedrawn, bodyOrShowError } from '../admin.ts'
import { loadFactors } from './account-factors.ts'
import { setUpPushButton, setUpPushChoices } from '../push-button.ts'

await signedInFor('/admin/account/')

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/account/sessions'))
  if (!body) return
  byId('sessions').replaceChildren(
    ...body.sessions.map((s) =>
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
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/account/sessions/${id}`), 'Signed out on that device.', load)
}

onSubmit(
  byId<HTMLFormElement>('password'),
  (data) =>
    api('POST', '/api/admin/account/password', {
      current_password: String(data.get('current_password')),
      new_password: String(data.get('new_password')),
    }),
  async (changed) => {
    showStatus(`Password changed. ${changed.other_sessions_ended} other sessions were signed out.`)
    // A change is voluntary, so the keys stay; if the account may have been taken, they should go too.
    byId('keys-after-password-text').textContent =
      `${changed.keys_active === 1 ? 'One API key of yours still works' : `${changed.keys_active} API keys of yours still work`}. ` +
      'If someone else may have used your account, revoke them too.'
    byId('keys-after-password').hidden = changed.keys_active === 0
    await load()
  },
)
byId('keys-revoke-all').addEventListener('click', async () => {
  const res = await api('DELETE', '/api/admin/keys')
  if (showOutcome(res, ({ revoked }) => `Revoked ${revoked === 1 ? 'your key' : `your ${revoked} keys`}.`))
    byId('keys-after-password').hidden = true
})
/** A leader's alerts about new leads: shown only to someone who leads a unit. */
async function loadMail() {
  const prefs = bodyOrShowError(await api('GET', '/api/admin/account/mail'))
  await setUpPushChoices(!!prefs?.leads_a_unit)
  if (!prefs?.leads_a_unit) return
  const box = byId<HTMLInputElement>('lead-alerts')
  box.checked = prefs.lead_alerts
  byId('mail').hidden = false
}
byId<HTMLInputElement>('lead-alerts').addEventListener('change', async (event) => {
  const box = event.currentTarget as HTMLInputElement
  const res = await api('PUT', '/api/admin/account/mail', { lead_alerts: box.checked })
  if (!showOutcome(res, (p) => (p.lead_alerts ? 'You will get a mail about each new lead.' : 'No more mails about new leads.')))
    box.checked = !box.checked
})

/** A leader's choice to show their email on the public page of the units they lead. */
async function loadPublic() {
  const details = bodyOrShowError(await api('GET', '/api/admin/account'))
  if (!details?.leads_a_unit) return
  byId<HTMLInputElement>('show-email').checked = details.show_email
  byId('public').hidden = false
}
byId<HTMLInputElement>('show-email').addEventListener('change', async (event) => {
  const box = event.currentTarget as HTMLInputElement
  const res = await api('PATCH', '/api/admin/account', { show_email: box.checked })
  const done = (d: { show_email: boolean; email: string }) =>
    d.show_email ? `Your email (${d.email}) shows on the unit page in a few seconds.` : 'Your email no longer shows on the unit page.'
  if (!showOutcome(res, done)) box.checked = !box.checked
})

await Promise.all([loadFactors(), load(), loadMail(), loadPublic(), setUpPushButton()])
