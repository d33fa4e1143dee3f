// Refusals shown where they belong: each problem of a 422 (`errors[].field`, or the field its detail starts with)
// is shown next to that field of the form, in the page's own words ("Show until must be after “Show from”.").
// The API keeps its {detail, code, errors}; only the page knows what it calls each field.

const FIELD_DETAIL = /^([a-z][a-z0-9_]*)(?:\.[\w.]+)?: (.+)$/s

/** A refusal's words without the field it names (`public: a scout …` → `a scout …`), for a page with no such field. */
export const withoutField = (detail: string) => FIELD_DETAIL.exec(detail)?.[2] ?? detail

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

/** One problem the API named: where (`errors[].field`) and what, in words. */
export interface FieldProblem {
  field: string
  detail: string
}

/** Shows `words` next to the control named `name`; false when the form has no such control. */
function place(form: HTMLFormElement, name: string, words: string, first: boolean): boolean {
  const control = controlOf(form, name)
  const label = labelOf(form, name)
  const holder = control && holderOf(control)
  if (!control || !label || !holder) return false
  const id = `field-error-${form.id || 'form'}-${name}`
  if (document.getElementById(id)) return true // a second problem of one field: the first is shown
  const error = document.createElement('span')
  Object.assign(error, { id, className: 'field-error', textContent: sentence(form, name, label, words) })
  error.dataset.for = name
  holder.after(error)
  control.setAttribute('aria-invalid', 'true')
  control.setAttribute('aria-describedby', `${control.getAttribute('aria-describedby') ?? ''} ${id}`.trim())
  if (first) control.focus()
  return true
}

/**
 * Shows a refusal: each problem next to its field when the form has it (the field marked invalid, the first one
 * focused), the rest in `general`. Returns whether every problem went next to a field.
 */
export function showRefusal(
  form: HTMLFormElement,
  refusal: string | { detail: string; errors?: FieldProblem[] },
  general: (text: string) => void,
  fieldName: (apiField: string) => string = (field) => field.split('.')[0],
): boolean {
  clearFieldErrors(form)
  const { detail, errors } = typeof refusal === 'string' ? { detail: refusal, errors: undefined } : refusal
  const problems = errors?.length ? errors : [{ field: /^([\w.]+): /.exec(detail)?.[1] ?? '', detail }]
  const left: string[] = []
  let placed = 0
  for (const problem of problems) {
    const name = problem.field && fieldName(problem.field)
    const words = withoutField(problem.detail)
    if (name && place(form, name, words, placed === 0)) placed++
    else left.push(problem.detail)
  }
  if (left.length) general(left.join(' '))
  return !left.length
}
