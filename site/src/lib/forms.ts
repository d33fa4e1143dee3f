// Browser helper for the public forms: submit a form as JSON and show the server's {detail} next to the field it
// names, or above the form.
import { type FieldProblem, showRefusal } from './field-errors.ts'

export function submitJson<T = unknown>(formId: string, url: string | (() => string), onOk: (answer: T) => void) {
  const form = document.getElementById(formId) as HTMLFormElement
  const error = document.getElementById(`${formId}-error`) as HTMLElement
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    error.hidden = true
    const data = Object.fromEntries([...new FormData(form)].filter(([, v]) => v !== ''))
    const res = await fetch(typeof url === 'string' ? url : url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    })
    if (res.ok) return onOk((await res.json().catch(() => ({}))) as T)
    const body: { detail?: unknown; errors?: FieldProblem[] } = await res.json().catch(() => ({}))
    const detail = typeof body.detail === 'string' ? body.detail : `Something went wrong (${res.status})`
    showRefusal(form, { detail, errors: Array.isArray(body.errors) ? body.errors : undefined }, (text) => {
      error.textContent = text
      error.hidden = false
      error.focus()
    })
  })
}
