// Sign-in page: the password, then the second factor when the person has one (a code, or their passkey), or a
// passkey alone; after signing in, on to `next` when it is a page of this site, else where the person's pages start.
import { startAuthentication } from '@simplewebauthn/browser'
import { sameSitePath } from '#server/auth/next-path.ts'
import type { AnswerOf } from '#server/routes.ts'
import type { Route } from '../admin.ts'
import { submitJson } from '../forms.ts'

type Answer = AnswerOf<Route<'POST /login'>>
type Asked = Extract<Answer, { second_factor: unknown }>['second_factor']
type Options = Parameters<typeof startAuthentication>[0]['optionsJSON']

const query = new URLSearchParams(location.search)
const $ = <E extends HTMLElement>(id: string) => document.getElementById(id) as E
$('signed-out').hidden = !query.has('signed-out')
// After a reset link (/login/?email=…&done=password): only a convenience, the sign-in checks everything as always.
$('password-set').hidden = query.get('done') !== 'password'
const email = document.querySelector<HTMLInputElement>('#login input[name=email]')!
email.value = query.get('email') ?? ''
if (email.value) document.querySelector<HTMLInputElement>('#login input[name=password]')!.focus()
const go = (start: string) => (location.href = sameSitePath(query.get('next'), start))
const passkeysWork = typeof window.PublicKeyCredential === 'function'

/** Shows a refusal above a form. */
function refuse(formId: string, detail: string) {
  const error = $(`${formId}-error`)
  error.textContent = detail
  error.hidden = false
  error.focus()
}

/** Posts JSON; the answer's body and whether it succeeded. */
async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { ok: res.ok, status: res.status, body: await res.json().catch(() => ({})) }
}

/** Asks the browser for a passkey's answer; null (with the reason shown) when there is none. */
async function passkeyAnswer(options: unknown, formId: string) {
  try {
    return await startAuthentication({ optionsJSON: options as Options })
  } catch (error) {
    refuse(
      formId,
      (error as Error).name === 'NotAllowedError' ? 'No passkey was used: it was cancelled or timed out.' : (error as Error).message,
    )
    return null
  }
}

function askSecondFactor(asked: Asked) {
  $('login').hidden = true
  const form = $<HTMLFormElement>('second')
  form.hidden = false
  ;(form.elements.namedItem('ticket') as HTMLInputElement).value = asked.ticket
  const hasApp = asked.methods.includes('totp')
  const hasPasskey = asked.methods.includes('passkey') && passkeysWork && asked.passkey !== null
  $('second-about').textContent = hasApp
    ? 'Enter the six-digit code your authenticator app shows now, or one of your recovery codes.'
    : `${hasPasskey ? 'Use your passkey, or enter' : 'Enter'} one of your recovery codes.`
  $('second-passkey').hidden = !hasPasskey
  $('second-passkey').onclick = async () => {
    const response = await passkeyAnswer(asked.passkey, 'second')
    if (!response) return
    const done = await post('/login/second-factor', { ticket: asked.ticket, passkey: response })
    if (done.ok) return go(done.body.start)
    refuse('second', done.body.detail ?? `Something went wrong (${done.status})`)
  }
  $('second-title').focus()
}

submitJson<Answer>('login', '/login', (answer) => ('second_factor' in answer ? askSecondFactor(answer.second_factor) : go(answer.start)))
submitJson<{ start: string }>('second', '/login/second-factor', (signedIn) => go(signedIn.start))

if (passkeysWork) {
  const button = $('passkey-sign-in')
  button.hidden = false
  button.addEventListener('click', async () => {
    const started = await post('/login/passkey/options', {})
    if (!started.ok) return refuse('login', started.body.detail ?? `Something went wrong (${started.status})`)
    const { ticket, options } = started.body as AnswerOf<Route<'POST /login/passkey/options'>>
    const response = await passkeyAnswer(options, 'login')
    if (!response) return
    const done = await post('/login/passkey', { ticket, response })
    if (done.ok) return go(done.body.start)
    refuse('login', done.body.detail ?? `Something went wrong (${done.status})`)
  })
}
