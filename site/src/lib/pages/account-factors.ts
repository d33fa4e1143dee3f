// Your second factors on the account page: setting up an authenticator app (a QR code, then a code from it),
// adding and removing passkeys, and recovery codes shown once.
import { startRegistration } from '@simplewebauthn/browser'
import { renderSVG } from 'uqr'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { api, byId, h, onSubmit, SITE_ZONE, text, when, type Route, showStatus, bodyOrShowError } from '../admin.ts'
import { confirmingFirst } from '../confirm-you.ts'

type Factors = AnswerOf<Route<'GET /api/admin/account/second-factor'>>
let removing: Factors['passkeys'][number] | null = null

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: SITE_ZONE })
const used = (f: { created_at: string; last_used_at: string | null }) =>
  `Added ${when(f.created_at)} · ${f.last_used_at ? `last used ${when(f.last_used_at)}` : 'not used yet'}`

function statusLine(f: Factors): string {
  if (f.enrolled) return 'You sign in with your password and a second factor.'
  if (f.locked)
    return 'Your unit asks you to add a second factor: until you do, only this page opens. An authenticator app or a passkey takes a minute.'
  if (f.required) return `Your unit asks you to add a second factor by ${day(f.due_at!)}. After that day only this page opens until you do.`
  return 'Not turned on. A second factor keeps your account safe even if someone learns your password.'
}

export async function loadFactors() {
  const f = bodyOrShowError(await api('GET', '/api/admin/account/second-factor'))
  if (!f) return
  byId('factor-status').textContent = statusLine(f)
  if (f.enrolled) byId('second-factor-banner').hidden = true
  byId('app-state').textContent = f.totp ? used(f.totp) : 'Not set up.'
  byId('app-start').hidden = f.totp !== null || !byId('app-setup').hidden
  byId('app-remove').hidden = f.totp === null
  byId('passkeys').replaceChildren(
    ...f.passkeys.map((p) =>
      h(
        'li',
        { class: 'card' },
        h('p', {}, h('strong', {}, p.name)),
        h('p', { class: 'muted' }, used(p)),
        h(
          'button',
          { type: 'button', class: 'secondary', 'aria-label': `Remove the passkey ${p.name}`, onclick: () => askToRemove(p) },
          'Remove',
        ),
      ),
    ),
  )
  if (!f.passkeys.length) byId('passkeys').append(h('li', { class: 'muted' }, 'No passkeys yet.'))
  byId('codes-left').textContent = f.enrolled
    ? `${f.recovery_codes_left} of 10 recovery codes left.${f.recovery_codes_left < 4 ? ' Make new ones soon.' : ''}`
    : 'You get ten recovery codes with your first authenticator app or passkey.'
  byId('codes-make').hidden = !f.enrolled
}

/** Shows codes once, with ways to keep them. */
// Absent only on a replayed answer, which these pages never ask for (they send no Idempotency-Key).
function showCodes(codes: string[] = []) {
  if (!codes.length) return
  byId('codes').replaceChildren(...codes.map((c) => h('li', {}, h('code', {}, c))))
  const file = `Recovery codes for ${location.host}. Each works once.\n\n${codes.join('\n')}\n`
  byId<HTMLAnchorElement>('codes-download').href = `data:text/plain;charset=utf-8,${encodeURIComponent(file)}`
  byId('codes-copy').onclick = async () => {
    await navigator.clipboard?.writeText(codes.join('\n'))
    showStatus('Recovery codes copied.')
  }
  byId('codes-new').hidden = false
  byId('codes-new').scrollIntoView()
}

byId('app-start').addEventListener('click', async () => {
  const started = bodyOrShowError(await confirmingFirst(() => api('POST', '/api/admin/account/totp')))
  if (!started?.otpauth_url || !started.secret) return
  // The QR code is made here from the otpauth URL: squares only, no markup from the server.
  byId('app-qr').innerHTML = renderSVG(started.otpauth_url, { border: 2 })
  byId<HTMLAnchorElement>('app-link').href = started.otpauth_url
  byId('app-secret').textContent = started.secret.replace(/(.{4})/g, '$1 ').trim()
  byId('app-setup').hidden = false
  byId('app-start').hidden = true
  byId<HTMLFormElement>('app-confirm').querySelector('input')!.focus()
})

onSubmit(
  byId<HTMLFormElement>('app-confirm'),
  (data) => api('POST', '/api/admin/account/totp/confirm', { code: text(data, 'code').replace(/\s/g, '') }),
  async ({ recovery_codes }) => {
    byId('app-setup').hidden = true
    showStatus('The authenticator app is on: you will be asked for a code from it when you sign in.')
    showCodes(recovery_codes)
    await loadFactors()
  },
)

onSubmit(
  byId<HTMLFormElement>('app-remove-form'),
  (data) => confirmingFirst(() => api('DELETE', '/api/admin/account/totp', { code: text(data, 'code') })),
  async () => {
    await loadFactors()
    showStatus('The authenticator app is removed.')
  },
)

onSubmit(
  byId<HTMLFormElement>('passkey-add'),
  async (data) => {
    const options = await confirmingFirst(() => api('POST', '/api/admin/account/passkeys/options'))
    if (!options.ok) return options
    let response
    try {
      response = await startRegistration({ optionsJSON: options.body as Parameters<typeof startRegistration>[0]['optionsJSON'] })
    } catch (error) {
      const why = (error as Error).name === 'NotAllowedError' ? 'it was cancelled or timed out' : (error as Error).message
      return { ok: false as const, status: 400, body: { detail: `No passkey was made: ${why}.` } }
    }
    return api('POST', '/api/admin/account/passkeys', {
      name: text(data, 'name'),
      response: response as BodyOf<Route<'POST /api/admin/account/passkeys'>>['response'],
    })
  },
  async ({ passkey, recovery_codes }) => {
    showStatus(`Added the passkey “${passkey.name}”.`)
    showCodes(recovery_codes)
    await loadFactors()
  },
)

const removeDialog = byId<HTMLDialogElement>('passkey-remove-dialog')
function askToRemove(p: Factors['passkeys'][number]) {
  removing = p
  byId('passkey-remove-title').textContent = `Remove the passkey “${p.name}”`
  showStatus('', byId('passkey-remove-error'))
  removeDialog.showModal()
}
removeDialog.querySelector('[data-close]')!.addEventListener('click', () => removeDialog.close())

onSubmit(
  byId<HTMLFormElement>('passkey-remove'),
  (data) => api('DELETE', `/api/admin/account/passkeys/${removing!.id}`, { password: String(data.get('password')) }),
  async () => {
    removeDialog.close()
    await loadFactors()
    showStatus(`Removed the passkey “${removing!.name}”.`)
  },
)

onSubmit(
  byId<HTMLFormElement>('codes-make'),
  (data) => confirmingFirst(() => api('POST', '/api/admin/account/recovery-codes', { password: String(data.get('password')) })),
  async ({ recovery_codes }) => {
    showStatus('New recovery codes made: the old ones no longer work.')
    showCodes(recovery_codes)
    await loadFactors()
  },
)
