// Refusals shown where they belong: a 422 whose detail names a field of the form ("ends_at: must be after
// starts_at") is shown next to that field, in the page's own words ("Show until must be after “Show from”.").
// The API keeps its {detail}; only the page knows what it calls each field.

const FIELD_DETAIL = /^([a-z][a-z0-9_]*)(?:\.[\w.]+)?: (.+)$/s

/** The control (or group of checkboxes) named `name` in the form. */
function controlOf(form: HTMLFormElement, name: string): HTMLElement | null {
  const named = [...form.elements].find((el) => (el as HTMLInputElement).name === name) as HTMLElement | undefined
  return named && !(named instanceof HTMLInputElement && named.type === 'hidden') ? named : null
}

/** Where a control's words live: its fieldset for a group of checkboxes, else its label. */
function holderOf(control: HTMLElement): HTMLElement | null {
  if (control instanceof HTMLInputElement && control.type === 'checkbox' && control.name) {
    const group = control.closest('fieldset')
    if (group) return group
  }
  return control.closest('label') ?? (control.id ? document.querySelector<HTMLElement>(`label[for="${CSS.escape(control.id)}"]`) : null)
}

/** What the form calls a field: its label or legend, without its hints in brackets. */
export function labelOf(form: HTMLFormElement, name: string): string | null {
  const control = controlOf(form, name)
  const holder = control && holderOf(control)
  if (!holder) return null
  const words = holder.matches('fieldset')
    ? (holder.querySelector('legend')?.textContent ?? '')
    : [...holder.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE || (n instanceof HTMLElement && n.matches('span:not(.field-error), strong, em')))
        .map((n) => n.textContent)
        .join(' ')
  return (
    words
      .replace(/\([^)]*\)/g, '')
      .replace(/\s+/g, ' ')
      .trim() || null
  )
}

/** Takes away the field errors shown on the form. */
export function clearFieldErrors(form: HTMLFormElement) {
  for (const error of form.querySelectorAll('.field-error[data-for]')) error.remove()
  for (const invalid of form.querySelectorAll('[aria-invalid="true"]')) {
    invalid.removeAttribute('aria-invalid')
    const describedBy = invalid
      .getAttribute('aria-describedby')
      ?.replace(/\s*field-error-\S+/g, '')
      .trim()
    if (describedBy) invalid.setAttribute('aria-describedby', describedBy)
    else invalid.removeAttribute('aria-describedby')
  }
}

/** The refusal as a sentence about the field, with the other fields it names called by their labels. */
function sentence(form: HTMLFormElement, field: string, label: string, words: string): string {
  const named = words.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|(?<=\b(?:before|after|needs|than) )[a-z]+\b/g, (token) => {
    const other = token !== field && labelOf(form, token)
    return other ? `“${other}”` : token
  })
  return `${label} ${named}`.replace(/[.\s]*$/, '.')
}

/**
 * Shows a refusal: next to its field when the detail names one the form has (the field marked invalid and
 * focused), otherwise in `general`. Returns whether it went next to a field.
 */
export function showRefusal(form: HTMLFormElement, detail: string, general: (text: string) => void): boolean {
  clearFieldErrors(form)
  const match = FIELD_DETAIL.exec(detail)
  const control = match && controlOf(form, match[1])
  const label = match && labelOf(form, match[1])
  const holder = control && holderOf(control)
  if (!match || !control || !label || !holder) {
    general(detail)
    return false
  }
  const id = `field-error-${form.id || 'form'}-${match[1]}`
  const error = document.createElement('span')
  Object.assign(error, { id, className: 'field-error', textContent: sentence(form, match[1], label, match[2]) })
  error.dataset.for = match[1]
  holder.after(error)
  control.setAttribute('aria-invalid', 'true')
  control.setAttribute('aria-describedby', `${control.getAttribute('aria-describedby') ?? ''} ${id}`.trim())
  control.focus()
  return true
}
