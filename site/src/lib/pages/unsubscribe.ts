// The unsubscribe page: the token comes from the address's fragment (/unsubscribe/#<token>); only the button posts it
// (POST /api/unsubscribe/<token>, no sign-in), so a link scanner opening the page changes nothing.
const byId = <E extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as E
let token = ''
const ask = byId('ask')
const answer = byId('answer')
const button = byId<HTMLButtonElement>('stop')

/** The answer, where the eye and a screen reader go next. */
function say(text: string, kind: 'notice' | 'error' = 'notice') {
  answer.textContent = text
  answer.className = kind
  answer.hidden = false
  answer.focus()
}

/** Reads the token from the address; again when only the fragment changes (another mail's link in the same tab). */
function start() {
  token = location.hash.slice(1).trim()
  const usable = !!token && token.length <= 100
  byId('no-link').hidden = usable
  ask.hidden = !usable
  answer.hidden = true
  button.disabled = false
}
start()
addEventListener('hashchange', start)

button.addEventListener('click', async () => {
  button.disabled = true
  const res = await fetch(`/api/unsubscribe/${encodeURIComponent(token)}`, { method: 'POST', credentials: 'omit' }).catch(() => null)
  const body: { detail?: unknown } = res ? await res.json().catch(() => ({})) : {}
  const detail = typeof body.detail === 'string' ? body.detail : ''
  if (res?.ok) {
    ask.hidden = true
    return say(detail || 'Done: no more messages or digests to this address, except urgent ones.')
  }
  button.disabled = false
  if (res?.status === 404)
    return say(
      'This link is not known here, so nothing was changed. It may be cut short, or from another site: open the link from the mail again, or choose which mail you get on your family page.',
      'error',
    )
  say(`${detail || `The site did not answer (${res ? res.status : 'no connection'}).`} Please try again in a minute.`, 'error')
})
