// The roster's "Welcome families": mails a welcome with a sign-in link to every household address of the chosen unit
// (or of every unit the person leads) that has no account yet. Shown only to those who may also mail families.
import { api, byId, holds, showError, showStatus, whoami } from '../admin.ts'

const box = document.getElementById('welcome-families') as HTMLDetailsElement | null
const unitSelect = byId<HTMLSelectElement>('unit')

/** The unit the filter shows, if one. */
const chosenUnit = () => unitSelect.value || undefined

function sayUnits() {
  const chosen = unitSelect.selectedOptions[0]
  byId('welcome-units').textContent = chosenUnit() ? `the ${chosen.textContent!.toLowerCase()}` : 'your units'
}

if (box) {
  const me = await whoami()
  box.hidden = !holds(me, 'messages:send')
  sayUnits()
  unitSelect.addEventListener('change', sayUnits)
  const send = byId<HTMLButtonElement>('welcome-send')
  send.addEventListener('click', async () => {
    send.disabled = true
    showStatus('', byId('welcome-said'))
    showError('', byId('welcome-error'))
    const unit = chosenUnit()
    const res = await api('POST', '/api/admin/roster/welcome', unit ? { unit } : {})
    send.disabled = false
    if (!res.ok) return showError(res, byId('welcome-error'))
    const { queued } = res.body
    showStatus(
      queued
        ? `Queued ${queued} welcome ${queued === 1 ? 'mail' : 'mails'}; they go out in the next minutes.`
        : 'Nobody to welcome: every household address has an account or was welcomed in the last 7 days.',
      byId('welcome-said'),
    )
  })
}
