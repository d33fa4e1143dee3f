// Browser helper: submit a form as JSON and show the server's {detail} next to it.
export function submitJson(formId: string, url: string | (() => string), onOk: (body: any) => void) {
  const form = document.getElementById(formId) as HTMLFormElement
  const error = document.getElementById(`${formId}-error`)!
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    error.hidden = true
    const data = Object.fromEntries(new FormData(form))
    for (const [k, v] of Object.entries(data)) if (v === '') delete data[k]
    const res = await fetch(typeof url === 'string' ? url : url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    })
    const body = await res.json().catch(() => ({}))
    if (res.ok) return onOk(body)
    error.textContent = typeof body.detail === 'string' ? body.detail : `Something went wrong (${res.status})`
    error.hidden = false
    error.focus?.()
  })
}
