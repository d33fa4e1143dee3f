// The roster's yearly checklist on a scout: the badges a household card shows, and the one-tap dues box and health
// form date in the household dialog, each saved as it changes.
import { healthFormOn } from '#server/roster/health-form.ts'
import type { AnswerOf } from '#server/routes.ts'
import { dayWords } from '#server/words.ts'
import { api, byId, h, type Route, SITE_ZONE, showError, showStatus } from './admin.ts'

type Scout = AnswerOf<Route<'GET /api/admin/roster/households/{id}'>>['scouts'][number]

/** A health form running out within this many days shows as expiring (the roster's health=missing filter agrees). */
const WARNING_DAYS = 30

export const isoToday = () => new Date().toLocaleDateString('en-CA', { timeZone: SITE_ZONE })

/** Where a page message goes: in the household dialog while it is open, else the page's status line. */
export const statusHere = () => (byId<HTMLDialogElement>('household-dialog').open ? byId('household-said') : byId('status'))

/** A scout's badges: dues, health form and photo consent, in words (what is owed stands out while the household is active). */
export function badges(sc: Scout, active: boolean) {
  const form = sc.checks.health_form
  const owed = active ? 'badge warn' : 'badge'
  const expiring = form.current && !!form.expires_on && form.expires_on <= addDays(isoToday(), WARNING_DAYS)
  return h(
    'span',
    { class: 'badges' },
    sc.checks.dues.done ? h('span', { class: 'badge ok' }, 'dues paid') : h('span', { class: owed }, 'dues unpaid'),
    !form.current
      ? h('span', { class: owed }, form.expires_on ? 'health form ran out' : 'health form missing')
      : expiring
        ? h('span', { class: owed }, `health form runs out ${dayWords(form.expires_on!)}`)
        : h('span', { class: 'badge ok' }, 'health form current'),
    h('span', { class: 'badge' }, sc.photo_consent ? 'photos OK' : 'no photos'),
  )
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** One tap ticks or unticks this year's dues. */
export function duesBox(scout: Scout) {
  const box = h('input', { type: 'checkbox', checked: scout.checks.dues.done }) as HTMLInputElement
  box.addEventListener('change', async () => {
    const res = await api('PUT', `/api/admin/roster/scouts/${scout.id}/checks/dues`, { done: box.checked })
    if (res.ok) {
      scout.checks.dues.done = box.checked
      showStatus(`Dues for ${scout.first_name}: ${box.checked ? 'done' : 'not done'}.`, statusHere())
    } else {
      showError(res.body.detail, statusHere())
      box.checked = !box.checked
    }
  })
  return h('label', { class: 'tap-check' }, box, 'Dues paid', h('span', { class: 'vh' }, ` for ${scout.first_name}`))
}

/** How a health form stands, in words: current until, ran out on, or ticked before dates were kept. */
function healthFormWords(form: Scout['checks']['health_form']) {
  if (form.expires_on) return `${form.current ? 'Current until' : 'Ran out on'} ${dayWords(form.expires_on, { year: true })}`
  return form.done ? 'Received (no date given)' : 'Not yet'
}

/** The date on the scout's health form: setting it records the form, clearing it unticks this year's. */
export function healthFormDate(scout: Scout) {
  const form = scout.checks.health_form
  const words = h('span', { class: 'muted' }, healthFormWords(form))
  const date = h('input', { type: 'date', value: form.form_date ?? '', max: isoToday() }) as HTMLInputElement
  date.addEventListener('change', async () => {
    const body = date.value ? { done: true, form_date: date.value } : { done: false }
    const res = await api('PUT', `/api/admin/roster/scouts/${scout.id}/checks/health_form`, body)
    if (!res.ok) {
      showError(res.body.detail, statusHere())
      date.value = form.form_date ?? ''
      return
    }
    showStatus(
      `Health form for ${scout.first_name}: ${date.value ? `dated ${dayWords(date.value, { year: true })}` : 'not handed in'}.`,
      statusHere(),
    )
    Object.assign(form, { done: !!date.value }, healthFormOn(date.value || null, date.max))
    words.textContent = healthFormWords(form)
  })
  const caption = h('span', {}, 'Date on ', h('span', { class: 'vh' }, `${scout.first_name}’s `), 'health form')
  const label = h('label', { class: 'health-date' }, caption, date)
  return [label, words]
}
