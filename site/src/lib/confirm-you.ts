// "Confirm it's you" on the admin pages: a call refused with confirm_required (adding a second factor, minting a
// key) asks for the password in a dialog, confirms this session for ten minutes and makes the call again.
import { onSend, api, type ApiResult, detailOf, h, showError } from './admin.ts'

let dialog: HTMLDialogElement | null = null

/** The dialog, made the first time it is needed (the pages that use it do not carry it in their markup). */
function confirmDialog(): HTMLDialogElement {
  if (dialog) return dialog
  const problem = h('p', { class: 'error', role: 'alert', id: 'confirm-you-error', tabindex: '-1', hidden: true })
  const form = h(
    'form',
    { class: 'stack', id: 'confirm-you-form' },
    h('h2', { id: 'confirm-you-title' }, 'Confirm it’s you'),
    h('p', {}, 'Enter your password again: adding a second factor or an API key needs it, so a stolen session cannot do it.'),
    problem,
    h('label', {}, 'Your password ', h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true })),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, 'Confirm'),
      h('button', { type: 'button', class: 'secondary', onclick: () => dialog!.close() }, 'Cancel'),
    ),
  ) as HTMLFormElement
  dialog = h('dialog', { id: 'confirm-you', 'aria-labelledby': 'confirm-you-title' }, form) as HTMLDialogElement
  document.body.append(dialog)
  onSend(form, async (event) => {
    event.preventDefault()
    const res = await api('POST', '/api/admin/account/confirm', { password: String(new FormData(form).get('password')) })
    if (!res.ok) return showError(detailOf(res), problem)
    dialog!.returnValue = 'confirmed'
    dialog!.close()
  })
  return dialog
}

/** Asks for the password; whether the session is now confirmed (false when cancelled). */
function askToConfirm(): Promise<boolean> {
  const d = confirmDialog()
  d.querySelector('form')!.reset()
  d.querySelector<HTMLElement>('#confirm-you-error')!.hidden = true
  d.returnValue = ''
  d.showModal()
  return new Promise((resolve) => d.addEventListener('close', () => resolve(d.returnValue === 'confirmed'), { once: true }))
}

/** Makes `call`; when it is refused for want of a recent confirmation, asks for one and makes it again. */
export async function confirmingFirst<T>(call: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const first = await call()
  if (first.ok || first.body?.code !== 'confirm_required') return first
  return (await askToConfirm()) ? call() : first
}
